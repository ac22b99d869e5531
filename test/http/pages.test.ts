import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assemblePayload } from '../../src/domain/payload/index.ts';
import {
  LANDING_PAGE_CSP,
  type RenderedPage,
  escapeHtml,
  linkify,
  renderGonePage,
  renderLandingPage,
  renderNotFoundPage,
  renderPausedPage,
  renderTextPage,
  renderVcardPage,
  renderVcf,
  renderWifiPage,
  vcfContentDisposition,
} from '../../src/http/pages/index.ts';

const HOSTILE = `</title><script>alert(1)</script>"'><img src=x onerror=alert(2)>`;
const code = 'aB3dE5f';

const wifiPayload = (ssid: string, password: string) => assemblePayload('wifi', { wifiSsid: ssid, wifiPass: password });
const vcardPayload = (first: string, extra: Record<string, string> = {}) =>
  assemblePayload('vcard', { vcardFirstName: first, vcardLastName: 'Doe', ...extra });

/** Every tag of the document; user values cannot contain `<`, so these are all ours. */
const tags = (html: string) => html.match(/<[^>]*>/g) ?? [];
/** Attribute names of a tag, quoted values removed so their content cannot fake a name. */
const attributeNames = (tag: string) =>
  [...tag.replace(/"[^"]*"/g, '""').matchAll(/\s([a-zA-Z-]+)=/g)].map((m) => (m[1] ?? '').toLowerCase());
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

function allPages(): RenderedPage[] {
  return [
    renderTextPage({ title: HOSTILE, code, payload: HOSTILE }),
    renderWifiPage({ title: HOSTILE, code, payload: wifiPayload(HOSTILE.slice(0, 20), HOSTILE) }),
    renderWifiPage({ title: HOSTILE, code, payload: `not wifi ${HOSTILE}` }),
    renderVcardPage({ title: HOSTILE, code, payload: vcardPayload(HOSTILE, { vcardOrg: HOSTILE, vcardPhone: `123 ${HOSTILE}` }) }),
    renderVcardPage({ title: HOSTILE, code, payload: HOSTILE }),
    renderNotFoundPage(),
    renderGonePage(),
  ];
}

describe('any user value (property)', () => {
  const tagCount = (html: string) => (html.match(/</g) ?? []).length;

  it('never adds markup to the Wi-Fi and contact pages', () => {
    const value = fc.string({ unit: 'binary', minLength: 1, maxLength: 40 });
    const baseWifi = tagCount(
      renderWifiPage({ title: 't', code, payload: '', wifi: { ssid: 's', password: 'p', encryption: 'WPA', hidden: false } }).html,
    );
    // Phone, email and website become links only for some values; names and organisation never do.
    const card = { firstName: '', lastName: '', fullName: 'n', org: 'o', phone: '', email: '', web: '' };
    const baseCard = tagCount(renderVcardPage({ title: 't', code, payload: '', vcard: card }).html);
    fc.assert(
      fc.property(value, value, value, (title, a, b) => {
        const wifi = renderWifiPage({ title, code, payload: '', wifi: { ssid: a, password: b, encryption: 'WPA', hidden: false } });
        expect(tagCount(wifi.html)).toBe(baseWifi);
        const vcard = renderVcardPage({ title, code, payload: '', vcard: { ...card, fullName: a, org: b } });
        expect(tagCount(vcard.html)).toBe(baseCard);
      }),
      { numRuns: 300 },
    );
  });
});

describe('escapeHtml', () => {
  it('escapes the five characters that matter in text and attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
    expect(escapeHtml('plain ünïcode 😀')).toBe('plain ünïcode 😀');
  });
});

describe('every page', () => {
  it('escapes hostile values: no injected element, no closed <title>', () => {
    for (const page of allPages()) {
      expect(page.html).not.toContain('<script>alert');
      expect(page.html).not.toContain('<img');
      expect(page.html.match(/<\/title>/g)).toHaveLength(1);
      expect(page.html.match(/<script/g)?.length ?? 0).toBeLessThanOrEqual(1);
    }
    expect(allPages()[0]?.html).toContain('&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&gt;');
  });

  it('has no inline event handlers, style attributes or external resources', () => {
    for (const page of allPages()) {
      for (const tag of tags(page.html)) {
        const names = attributeNames(tag);
        expect(names.filter((n) => n.startsWith('on'))).toEqual([]);
        expect(names).not.toContain('style');
        expect(names).not.toContain('src');
      }
      expect(page.html).not.toMatch(/<link[^>]+href="(?!data:)/);
      expect(page.html).not.toMatch(/@import|url\(/);
    }
  });

  it('names each inline <style> and <script> in its Content-Security-Policy', () => {
    for (const page of allPages()) {
      const blocks = [...page.html.matchAll(/<(style|script)>([\s\S]*?)<\/\1>/g)];
      expect(blocks.length).toBeGreaterThanOrEqual(1);
      for (const [, kind, content] of blocks) {
        expect(page.csp).toMatch(new RegExp(`${kind}-src [^;]*${escapeRegExp(sha256(content ?? ''))}`));
      }
      expect(page.html.match(/<(style|script)\b/g)).toHaveLength(blocks.length);
    }
  });

  it('carries a strict policy', () => {
    for (const page of allPages()) {
      const directives = page.csp.split('; ');
      expect(directives).toContain("default-src 'none'");
      expect(directives).toContain('img-src data:');
      expect(directives).toContain("base-uri 'none'");
      expect(directives).toContain("form-action 'none'");
      expect(directives).toContain("frame-ancestors 'none'");
      expect(page.csp).not.toContain('unsafe');
    }
  });

  it('is a complete, mobile-ready, unindexed document', () => {
    for (const page of allPages()) {
      expect(page.html.startsWith('<!doctype html>')).toBe(true);
      expect(page.html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">');
      expect(page.html).toContain('<meta name="robots" content="noindex, nofollow">');
      expect(page.html).toContain('<meta name="referrer" content="no-referrer">');
      expect(page.html).toContain('<meta charset="utf-8">');
    }
  });
});

describe('text page', () => {
  it('shows the text with line breaks preserved and a copy button', () => {
    const page = renderTextPage({ title: 'Hello', code, payload: 'line 1\nline 2' });
    expect(page.status).toBe(200);
    expect(page.html).toContain('<div class="message" dir="auto">line 1\nline 2</div>');
    expect(page.html).toContain('data-copy="line 1\nline 2"');
    expect(page.csp).toBe(LANDING_PAGE_CSP);
  });

  it('links http(s) URLs in the text, and nothing else', () => {
    expect(linkify('see https://example.com/a?b=1&c=2.')).toBe(
      'see <a href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer nofollow ugc">https://example.com/a?b=1&amp;c=2</a>.',
    );
    expect(linkify('javascript:alert(1) data:text/html,x')).toBe('javascript:alert(1) data:text/html,x');
    expect(linkify('(https://example.com/x)')).toContain('href="https://example.com/x"');
    expect(linkify('https://exa<mple.com')).toBe(
      '<a href="https://exa/" rel="noopener noreferrer nofollow ugc">https://exa</a>&lt;mple.com',
    );
  });
});

describe('wifi page', () => {
  it('shows network name, password and security, with copy buttons for the first two', () => {
    const page = renderWifiPage({ title: 'Guest', code, payload: wifiPayload('Café "Guest"', 'p;a:s\\s') });
    expect(page.status).toBe(200);
    expect(page.html).toContain('Café &quot;Guest&quot;');
    expect(page.html).toContain('data-copy="Café &quot;Guest&quot;"');
    expect(page.html).toContain('data-copy="p;a:s\\s"');
    expect(page.html).toContain('aria-label="Copy network name"');
    expect(page.html).toContain('aria-label="Copy password"');
    expect(page.html).toContain('WPA / WPA2 / WPA3');
    expect(page.html).toMatch(/<script>[\s\S]*data-copy[\s\S]*<\/script>/);
  });

  it('keeps a hostile password inside its attribute', () => {
    const page = renderWifiPage({ title: 'x', code, payload: wifiPayload('net', '" autofocus onfocus="alert(1)') });
    expect(page.html).toContain('data-copy="&quot; autofocus onfocus=&quot;alert(1)"');
    for (const tag of tags(page.html)) expect(attributeNames(tag)).not.toContain('onfocus');
  });

  it('says an open network needs no password and offers no password copy', () => {
    const page = renderWifiPage({ title: 'Lobby', code, payload: 'WIFI:T:nopass;S:Lobby;;' });
    expect(page.html).toContain('None needed');
    expect(page.html).toContain('Open network');
    expect(page.html).not.toContain('aria-label="Copy password"');
  });

  it('explains how to join a hidden network', () => {
    expect(renderWifiPage({ title: 'x', code, payload: 'WIFI:T:WPA;S:Secret;P:pw;H:true;;' }).html).toContain('hidden');
  });

  it('accepts already parsed fields', () => {
    const page = renderWifiPage({
      title: 'x',
      code,
      payload: '',
      wifi: { ssid: 'Given', password: 'pw', encryption: 'WEP', hidden: false },
    });
    expect(page.html).toContain('data-copy="Given"');
    expect(page.html).toContain('WEP');
  });

  it('shows a payload it cannot read as text', () => {
    const page = renderWifiPage({ title: 'x', code, payload: 'ask at the bar' });
    expect(page.html).toContain('ask at the bar');
    expect(page.html).toContain('aria-label="Copy text"');
  });
});

describe('vcard page', () => {
  const payload = vcardPayload('Jane', {
    vcardOrg: 'Acme',
    vcardPhone: '+1 (555) 010-0199',
    vcardEmail: 'jane@example.com',
    vcardWeb: 'example.com/jane',
  });

  it('shows the contact with an "Add to contacts" link to /r/{code}.vcf', () => {
    const page = renderVcardPage({ title: 'Card', code, payload });
    expect(page.status).toBe(200);
    expect(page.html).toContain('<h1 dir="auto">Jane Doe</h1>');
    expect(page.html).toContain('Acme');
    expect(page.html).toContain(`href="/r/${code}.vcf"`);
    expect(page.html).toContain('Add to contacts');
  });

  it('links phone, email and website', () => {
    const page = renderVcardPage({ title: 'Card', code, payload });
    expect(page.html).toContain('href="tel:+15550100199"');
    expect(page.html).toContain('href="mailto:jane@example.com"');
    expect(page.html).toContain('href="https://example.com/jane"');
    expect(page.html).toContain('>JD</div>');
  });

  it('never links a website that is not http(s)', () => {
    const page = renderVcardPage({
      title: 'Card',
      code,
      payload: 'BEGIN:VCARD\r\nFN:Eve\r\nURL:javascript:alert(1)\r\nEMAIL:x" onclick="y\r\nEND:VCARD',
    });
    expect(page.html).not.toContain('href="javascript:');
    expect(page.html).toContain('javascript:alert(1)');
    for (const tag of tags(page.html)) expect(attributeNames(tag)).not.toContain('onclick');
  });

  it('uses the title when the card has no name, and still offers the download', () => {
    const page = renderVcardPage({ title: 'Front desk', code, payload: 'TEL:+1 555 0100' });
    expect(page.html).toContain('<h1 dir="auto">Front desk</h1>');
    expect(page.html).toContain(`href="/r/${code}.vcf"`);
  });
});

describe('renderLandingPage', () => {
  it('renders the shown kinds and leaves redirect kinds to the route', () => {
    expect(renderLandingPage({ contentType: 'text', title: 't', code, payload: 'hi' })?.html).toContain('hi');
    expect(renderLandingPage({ contentType: 'wifi', title: 't', code, payload: 'WIFI:S:n;;' })?.html).toContain('data-copy="n"');
    expect(renderLandingPage({ contentType: 'vcard', title: 't', code, payload: 'FN:Jo' })?.html).toContain('.vcf');
    for (const contentType of ['url', 'whatsapp', 'email'] as const) {
      expect(renderLandingPage({ contentType, title: 't', code, payload: 'https://example.com/' })).toBeNull();
    }
  });
});

describe('error pages', () => {
  it('answers 404 for an unknown code, and 404 saying so for a paused one (not “check that the whole code was scanned”)', () => {
    const notFound = renderNotFoundPage();
    expect(notFound.status).toBe(404);
    expect(notFound.html).toContain('QR code not found');
    expect(notFound.html).not.toMatch(/paus/i);
    const paused = renderPausedPage();
    expect(paused.status).toBe(404);
    expect(paused.html).toContain('This QR code is paused');
    expect(paused.html).not.toMatch(/whole code|not found/i);
  });

  it('answers 410 for a deleted item', () => {
    const gone = renderGonePage();
    expect(gone.status).toBe(410);
    expect(gone.html).toContain('removed');
  });

  it('runs no script at all', () => {
    for (const page of [renderNotFoundPage(), renderGonePage()]) {
      expect(page.html).not.toContain('<script');
      expect(page.csp).toContain("script-src 'none'");
    }
  });
});

describe('renderVcf', () => {
  it('returns an assembled vCard unchanged', () => {
    const payload = vcardPayload('Jane', { vcardPhone: '+1 555 0100' });
    expect(renderVcf(payload)).toBe(payload);
  });

  it('turns LF lines into CRLF and closes an unclosed card', () => {
    expect(renderVcf('BEGIN:VCARD\nVERSION:3.0\nFN:Jo\n')).toBe('BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Jo\r\nEND:VCARD\r\n');
  });

  it('wraps properties written without BEGIN/END into a vCard 3.0', () => {
    expect(renderVcf('FN:Jane Doe\nTEL:+1 555 0100')).toBe(
      'BEGIN:VCARD\r\nVERSION:3.0\r\nN:Doe;Jane;;;\r\nFN:Jane Doe\r\nTEL:+1 555 0100\r\nEND:VCARD\r\n',
    );
  });

  it('names a card without a name after the fallback and keeps loose text as a note', () => {
    expect(renderVcf('Call me maybe\n+1 555 0100', 'Front desk')).toBe(
      'BEGIN:VCARD\r\nVERSION:3.0\r\nN:desk;Front;;;\r\nFN:Front desk\r\nNOTE:Call me maybe\\n+1 555 0100\r\nEND:VCARD\r\n',
    );
  });

  it('gives a download name in ASCII and UTF-8', () => {
    expect(vcfContentDisposition(vcardPayload('Zoë'))).toBe(`attachment; filename="Zo_ Doe.vcf"; filename*=UTF-8''Zo%C3%AB%20Doe.vcf`);
    expect(vcfContentDisposition('nothing', 'contact')).toBe(`attachment; filename="contact.vcf"; filename*=UTF-8''contact.vcf`);
  });
});

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
