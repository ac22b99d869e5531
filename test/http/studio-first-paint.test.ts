// The studio's page as the server answers it to a member (src/http/web-app/studio-page.ts):
// "New code" names the studio's files and arrives with its first preview drawn, the exact image
// the app draws for that draft; everyone else, and every other page, gets index.html as built.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DESIGN } from '../../src/domain/design/design-schema.ts';
import { sampleShortLink } from '../../src/domain/qr-items/sample-short-link.ts';
import { DEFAULT_WEB_DIR } from '../../src/http/plugins/web-app.ts';
import { renderSvg } from '../../src/render/portable.ts';
import { svgOfDataUrl } from '../../src/render/svg-data-url.ts';
import { PASSWORD, type SignedIn, inviteMember, sessionFrom, setupOwner } from '../support/sessions.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

const ACCOUNT = `Joe's <img src=x onerror="alert(1)"> & Co`;

let t: TestApp;
let owner: SignedIn;
beforeAll(async () => {
  t = await makeTestApp({ SIGNUP: 'open' });
  owner = await setupOwner(t, 'owner@example.com', ACCOUNT);
});
afterAll(() => t.close());

const indexHtml = () => fs.readFileSync(path.join(DEFAULT_WEB_DIR, 'index.html'), 'utf8');
const previewSrc = (html: string) => /<img class="preview__img" src="([^"]*)"/.exec(html)?.[1];
const fromHtml = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

describe('"New code" opened by a member who may create codes', () => {
  it('arrives with its first preview: the default design drawn by the renderer for the sample short link, as the app would draw it', async () => {
    const res = await owner.request({ method: 'GET', url: '/app/codes/new', headers: { host: 'qr.example.com' } });
    expect(res.statusCode).toBe(200);
    const src = previewSrc(res.body);
    expect(src).toBeDefined();
    const svg = svgOfDataUrl(fromHtml(src as string));
    expect(svg).toBe(renderSvg(sampleShortLink('http://qr.example.com'), DEFAULT_DESIGN));
    expect(res.body).toContain('data-drawn-for="http://qr.example.com/r/AbCdE12"');
    expect(res.body).toContain('<div id="app" data-first-paint="studio">');
    expect(res.body).toContain('<title>New code · qrtrack</title>');
    expect(res.body).toContain('Scan check: reading the code at phone size…');
  });

  it('names the studio’s stylesheet and chunks, its scan check and the decoder’s WebAssembly, each a built file', async () => {
    const res = await owner.request({ method: 'GET', url: '/app/codes/new' });
    const links = [...res.body.matchAll(/<link rel="(modulepreload|preload|stylesheet)"[^>]*href="([^"]+)"/g)].map((m) => [m[1], m[2]]);
    const hrefs = links.map(([, href]) => href as string);
    expect(hrefs.some((h) => /\/studio-[^/]+\.js$/.test(h))).toBe(true);
    expect(hrefs.some((h) => /\/studio-[^/]+\.css$/.test(h))).toBe(true);
    expect(hrefs.some((h) => /\/scan-check-[^/]+\.js$/.test(h))).toBe(true);
    expect(res.body).toMatch(
      /<link rel="preload" as="fetch" type="application\/wasm" crossorigin href="\/app\/assets\/zxing_reader-[^"]+\.wasm">/,
    );
    // The renderer waits for the scan check (it would share the line with the decoder).
    expect(hrefs.some((h) => h.includes('browser-renderer'))).toBe(false);
    for (const href of hrefs.filter((h) => h.startsWith('/app/assets/'))) {
      expect(fs.existsSync(path.join(DEFAULT_WEB_DIR, href.slice('/app/'.length))), href).toBe(true);
    }
  });

  it('holds its stylesheets inline, allowed by their hash alone; no inline script, no other inline style, and no cache keeps it', async () => {
    const res = await owner.request({ method: 'GET', url: '/app/codes/new' });
    const styles = [...res.body.matchAll(/<style>([^<]*)<\/style>/g)].map((m) => m[1] as string);
    expect(styles).toHaveLength(1);
    const hash = createHash('sha256')
      .update(styles[0] as string)
      .digest('base64');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain(`style-src 'self' 'sha256-${hash}'`);
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval';");
    expect(csp).not.toContain('unsafe-inline');
    // The stylesheets it holds are not asked for again before the first paint.
    expect(res.body).not.toMatch(/<link rel="stylesheet"/);
    expect(res.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(res.body.match(/<style/g)).toHaveLength(1);
    expect(res.body).not.toMatch(/\sstyle=/);
    expect(res.body).not.toMatch(/<[a-z][^>]*\son[a-z]+=/i);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers.vary).toMatch(/cookie/i);
    // Every other page keeps the CSP without any inline source.
    const plain = await owner.request({ method: 'GET', url: '/app/codes' });
    expect(String(plain.headers['content-security-policy'])).toContain("style-src 'self';");
  });

  it('is sent compressed to a browser that accepts it (it holds its stylesheets), as it is to one that does not', async () => {
    const plain = await owner.request({ method: 'GET', url: '/app/codes/new' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await owner.request({ method: 'GET', url: '/app/codes/new', headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(plain.body);
    const gz = await owner.request({ method: 'GET', url: '/app/codes/new', headers: { 'accept-encoding': 'br;q=0, gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString('utf8')).toBe(plain.body);
    console.log(`"New code" page: ${plain.rawPayload.length} bytes, ${br.rawPayload.length} with brotli`);
  });

  it('escapes the account’s name and the address the page was asked at', async () => {
    const res = await owner.request({ method: 'GET', url: '/app/codes/new', headers: { host: 'qr.example.com:8080' } });
    expect(res.body).toContain('<span class="topbar__account">Joe&#39;s &lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; Co</span>');
    expect(res.body).not.toContain('<img src=x');
    const bad = await owner.request({ method: 'GET', url: '/app/codes/new', headers: { host: 'a"b<c>.test' } });
    expect(bad.body).not.toContain('a"b<c>');
  });
});

describe('every other page, and anyone else', () => {
  it('answers the plain page without a session, with a session that does not exist, and on other pages', async () => {
    const plain = indexHtml();
    expect((await t.request({ method: 'GET', url: '/app/codes/new' })).body).toBe(plain);
    const guessed = await t.request({
      method: 'GET',
      url: '/app/codes/new',
      headers: { cookie: 'qrtrack_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
    });
    expect(guessed.body).toBe(plain);
    for (const url of ['/app/codes', '/app/overview', '/app/codes/static', '/app/sign-in']) {
      expect((await owner.request({ method: 'GET', url })).body, url).toBe(plain);
    }
  });

  it('names the studio’s files but draws nothing for a design picked by address, or a code being edited (the renderer then comes first)', async () => {
    for (const url of ['/app/codes/new?design=builtin:1', '/app/codes/00000000-0000-4000-8000-000000000000/edit']) {
      const res = await owner.request({ method: 'GET', url });
      expect(res.body, url).toContain('<div id="app"></div>');
      expect(res.body, url).toMatch(/rel="modulepreload" crossorigin href="\/app\/assets\/studio-/);
      expect(res.body, url).toMatch(/rel="modulepreload" crossorigin href="\/app\/assets\/browser-renderer-/);
      expect(res.body, url).not.toContain('zxing_reader');
    }
  });

  it('gives a viewer the plain page (the studio shows them no form), and a member of two accounts no drawn page', async () => {
    const viewer = await inviteMember(t, owner, 'viewer@example.com', 'viewer');
    expect((await viewer.request({ method: 'GET', url: '/app/codes/new' })).body).toBe(indexHtml());
    const beta = sessionFrom(
      t,
      await t.request({ method: 'POST', url: '/v1/signup', payload: { accountName: 'Beta', email: 'b@example.com', password: PASSWORD } }),
    );
    const invite = await beta.request({ method: 'POST', url: '/v1/account/invites', payload: { role: 'editor' } });
    const token = (invite.json() as { url: string }).url.split('/').pop() as string;
    const joined = sessionFrom(
      t,
      await t.request({ method: 'POST', url: `/v1/invites/${token}/accept`, payload: { email: 'owner@example.com', password: PASSWORD } }),
    );
    const res = await joined.request({ method: 'GET', url: '/app/codes/new' });
    expect(res.body).toContain('<div id="app"></div>');
    expect(res.body).toContain('rel="modulepreload"');
  });
});

describe('a stale or guessed cookie on the page', () => {
  it('is not counted against the address: the app’s /v1/session, which follows, counts it once', async () => {
    const t2 = await makeTestApp({ AUTH_FAILURES_PER_MINUTE: '2' });
    try {
      const member = await setupOwner(t2);
      for (let i = 0; i < 5; i++) {
        const res = await t2.request({
          method: 'GET',
          url: '/app/codes/new',
          headers: { cookie: `qrtrack_session=${'B'.repeat(42)}${i}` },
        });
        expect(res.body).toContain('<div id="app"></div>');
      }
      expect((await member.request({ method: 'GET', url: '/v1/session' })).statusCode).toBe(200);
      expect((await member.request({ method: 'GET', url: '/app/codes/new' })).body).toContain('data-first-paint="studio"');
    } finally {
      await t2.close();
    }
  });
});
