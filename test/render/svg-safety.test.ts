import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DESIGN, FRAME_STYLES, type QrDesign } from '../../src/domain/design.ts';
import { ValidationError } from '../../src/domain/errors.ts';
import { parseLogoDataUrl } from '../../src/domain/logo.ts';
import { renderSvg } from '../../src/render/index.ts';
import { SHORT_URL } from './fixtures.ts';

const NS = 'xmlns="http://www.w3.org/2000/svg"';
const XLINK = 'xmlns:xlink="http://www.w3.org/1999/xlink"';
const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const HOSTILE_LOGOS: Record<string, string> = {
  script: `<svg ${NS}><script>alert(1)</script><rect width="10" height="10"/></svg>`,
  'CDATA script': `<svg ${NS}><script><![CDATA[alert(1)]]></script></svg>`,
  'namespaced script': `<s:svg xmlns:s="http://www.w3.org/2000/svg"><s:script>alert(1)</s:script><s:rect width="1" height="1"/></s:svg>`,
  'event handlers': `<svg ${NS} onload="alert(1)"><rect width="10" height="10" onclick="alert(2)" onmouseover='alert(3)'/></svg>`,
  foreignObject: `<svg ${NS}><foreignObject width="100" height="100"><iframe xmlns="http://www.w3.org/1999/xhtml" src="https://evil.example/"/></foreignObject></svg>`,
  'external image': `<svg ${NS} ${XLINK}><image href="https://evil.example/a.png" width="10" height="10"/><image xlink:href="http://evil.example/b.png"/></svg>`,
  'external use': `<svg ${NS}><use href="https://evil.example/sprite.svg#icon"/></svg>`,
  'file: reference': `<svg ${NS} ${XLINK}><image href="file:///etc/passwd"/><use xlink:href="file:///etc/hosts#x"/></svg>`,
  'javascript: link': `<svg ${NS} ${XLINK}><a href="javascript:alert(1)"><rect width="5" height="5"/></a><use xlink:href="javascript:alert(1)"/></svg>`,
  'entity-encoded javascript:': `<svg ${NS}><use href="&#106;avascript:alert(1)"/></svg>`,
  'nested svg image': `<svg ${NS}><image href="data:image/svg+xml;base64,${Buffer.from(`<svg ${NS} onload="alert(1)"/>`).toString('base64')}"/></svg>`,
  'style @import and url()': `<svg ${NS}><style>@import url(https://evil.example/x.css); rect { fill: url(https://evil.example/p.svg#a) }</style><rect style="fill:url(http://evil.example/#p)" width="1" height="1"/></svg>`,
  'css escapes': `<svg ${NS}><style>rect { background: u\\72l(https://evil.example/) }</style></svg>`,
  'presentation url()': `<svg ${NS}><rect fill="url(https://evil.example/#g)" filter="url('file:///x#f')" width="1" height="1"/></svg>`,
  animation: `<svg ${NS}><a><animate attributeName="href" to="javascript:alert(1)"/></a><set attributeName="onload" to="alert(1)"/></svg>`,
  'processing instruction': `<?xml-stylesheet href="https://evil.example/x.css"?><svg ${NS}><rect width="1" height="1"/></svg>`,
  'huge dimensions': `<svg ${NS} width="100000000" height="100000000" viewBox="0 0 1e12 1e12"><filter id="f"><feGaussianBlur stdDeviation="100000"/></filter><rect width="1e12" height="1e12" filter="url(#f)"/></svg>`,
  'use bomb': `<svg ${NS}><defs><g id="a"><rect width="1" height="1"/></g><g id="b"><use href="#a"/><use href="#a"/></g><g id="c"><use href="#b"/><use href="#b"/></g></defs><use href="#c"/></svg>`,
  'feImage': `<svg ${NS}><filter id="f"><feImage href="https://evil.example/x.png"/></filter></svg>`,
  'raster image kept': `<svg ${NS}><image href="data:image/png;base64,${PNG_1PX}" width="1" height="1"/></svg>`,
};

const REJECTED_LOGOS: Record<string, string> = {
  'DOCTYPE with entities': `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]><svg ${NS}><text>&b;</text></svg>`,
  'external entity': `<!DOCTYPE svg SYSTEM "file:///etc/passwd"><svg ${NS}/>`,
  'undeclared entity': `<svg ${NS}><text>&xxe;</text></svg>`,
  'not SVG': `<html><body onload="alert(1)"/></html>`,
};

/** What the browser, or any SVG consumer, could act on. Nested SVG data URLs are checked too. */
function activeContent(svg: string): string[] {
  const found: string[] = [];
  if (/<\s*(?:[\w-]+:)?script/i.test(svg)) found.push('script element');
  if (/\son[a-z]+\s*=/i.test(svg)) found.push('event handler');
  if (/foreignObject|<iframe|<!DOCTYPE|<!ENTITY|<animate|<set\b|<a\b|@import|<\?xml-stylesheet/i.test(svg)) found.push('forbidden construct');
  const refs = [...svg.matchAll(/(?:href|src)\s*=\s*["']([^"']*)["']/gi), ...svg.matchAll(/url\(\s*['"]?([^)'"]*)/gi)].map((m) => m[1]!.trim());
  for (const ref of refs) {
    if (ref.startsWith('#') || /^data:image\/(?:png|jpeg|webp);base64,/i.test(ref)) continue;
    const nested = /^data:image\/svg\+xml;base64,(.*)$/i.exec(ref);
    if (nested) found.push(...activeContent(Buffer.from(nested[1]!, 'base64').toString('utf8')));
    else found.push(`external reference ${ref.slice(0, 40)}`);
  }
  return found;
}

function wellFormed(svg: string): boolean {
  const parser = new SaxesParser({ xmlns: true });
  let ok = true;
  parser.on('error', () => {
    ok = false;
  });
  parser.write(svg).close();
  return ok;
}

const svgUrl = (svg: string) => `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;

describe('SVG logo sanitizing', () => {
  it.each(Object.entries(HOSTILE_LOGOS))('%s: leaves no active content or external reference', (_, hostile) => {
    const logo = parseLogoDataUrl('customLogoUrl', svgUrl(hostile));
    const clean = logo.bytes.toString('utf8');
    expect(activeContent(clean)).toEqual([]);
    expect(wellFormed(clean)).toBe(true);
    const rendered = renderSvg(SHORT_URL, { ...DEFAULT_DESIGN, customLogoUrl: logo.dataUrl }, { size: 500 });
    expect(activeContent(rendered)).toEqual([]);
  });

  it.each(Object.entries(REJECTED_LOGOS))('%s: is refused', (_, hostile) => {
    expect(() => parseLogoDataUrl('customLogoUrl', svgUrl(hostile))).toThrow(ValidationError);
  });

  it('caps huge declared sizes and drops absurd viewBoxes', () => {
    const clean = parseLogoDataUrl('f', svgUrl(HOSTILE_LOGOS['huge dimensions']!)).bytes.toString();
    expect(clean).toMatch(/<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="2048" height="2048"/);
    expect(clean).not.toContain('1e12');
    expect(clean).toContain('stdDeviation="100"');
  });

  it('keeps ordinary symbol reuse but not uses of uses', () => {
    const clean = parseLogoDataUrl('f', svgUrl(HOSTILE_LOGOS['use bomb']!)).bytes.toString();
    expect(clean.match(/<use /g)).toHaveLength(2);
    expect(clean).not.toContain('href="#b"');
  });

  it('keeps inline raster images and internal references', () => {
    const clean = parseLogoDataUrl('f', svgUrl(HOSTILE_LOGOS['raster image kept']!)).bytes.toString();
    expect(clean).toContain(`href="data:image/png;base64,${PNG_1PX}"`);
  });

  it('re-renders a custom logo through the sanitizer even if the design skipped validation', () => {
    const design = { ...DEFAULT_DESIGN, customLogoUrl: svgUrl(HOSTILE_LOGOS.script!) };
    const rendered = renderSvg(SHORT_URL, design, { size: 500 });
    expect(activeContent(rendered)).toEqual([]);
    expect(() => renderSvg(SHORT_URL, { ...DEFAULT_DESIGN, customLogoUrl: 'https://evil.example/x.png' })).toThrow(ValidationError);
  });
});

describe('hostile frame text', () => {
  const texts = ['</text><script>alert(1)</script>', '"><svg onload=alert(1)>', `' onmouseover='alert(1)`, '&amp; &lt; & "quotes" <![CDATA[x]]>', ']]><!--', '\u202e\u0000\uffff'];
  it.each(FRAME_STYLES.filter((f) => f !== 'none'))('%s: text becomes outlines, never markup', (frameStyle) => {
    for (const frameText of texts) {
      const svg = renderSvg(SHORT_URL, { ...DEFAULT_DESIGN, frameStyle, frameText } as QrDesign, { size: 500 });
      expect(activeContent(svg)).toEqual([]);
      expect(wellFormed(svg)).toBe(true);
      expect(svg).not.toContain('alert');
      expect(svg).not.toContain('quotes');
    }
  });
});

describe('rendered SVG', () => {
  it('never refers to anything outside itself, whatever the design', () => {
    const designs: Partial<QrDesign>[] = [
      {},
      { isGradient: true, gradientType: 'radial', color2: '#ff0000', presetLogo: 'location', frameStyle: 'badge' },
      { isGradient: true, gradientRotation: 33, customEyeColors: true, eyeColor: '#00ff0080', presetLogo: 'wifi', frameStyle: 'phone', bgTransparent: true },
      { customLogoUrl: `data:image/png;base64,${PNG_1PX}`, frameStyle: 'bottom-banner' },
    ];
    for (const d of designs) {
      const svg = renderSvg(SHORT_URL, { ...DEFAULT_DESIGN, ...d }, { size: 500 });
      expect(activeContent(svg)).toEqual([]);
      expect(wellFormed(svg)).toBe(true);
      // The only http: in the document is the SVG namespace name, which is never fetched.
      expect(svg.match(/https?:/g)).toEqual(['http:']);
    }
  });
});
