import fs from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WEB_DIR } from '../../src/http/plugins/web-app.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(() => t.close());

describe('the web app under /app/', () => {
  it('redirects / to /app/', async () => {
    const res = await t.request({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/app/');
  });

  it('serves index.html for /app and any page below it, with a strict CSP and no referrer', async () => {
    for (const url of ['/app', '/app/', '/app/sign-in', '/app/invite/abc', '/app/account/keys']) {
      const res = await t.request({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('<div id="app"></div>');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toMatch(/'unsafe-eval'/);
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('has no inline script and loads nothing from another origin', async () => {
    const html = (await t.request({ method: 'GET', url: '/app/' })).body;
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it('serves hashed assets with long caching, and 404 for an unknown asset', async () => {
    const html = (await t.request({ method: 'GET', url: '/app/' })).body;
    const src = /src="(\/app\/assets\/[^"]+\.js)"/.exec(html)?.[1] as string;
    const asset = await t.request({ method: 'GET', url: src });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toContain('immutable');
    const missing = await t.request({ method: 'GET', url: '/app/assets/nope-123.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).not.toContain('<div id="app">');
  });
});

describe('compression of the web app', () => {
  /** The studio's renderer chunk (the biggest script), as the page's scripts name it. */
  function rendererAsset(): string {
    const file = fs.readdirSync(path.join(DEFAULT_WEB_DIR, 'assets')).find((f) => /^browser-renderer-.*\.js$/.test(f));
    expect(file).toBeDefined();
    return `/app/assets/${file}`;
  }

  it('sends brotli to a browser that accepts it, gzip to one that accepts only gzip, and the file as built to others', async () => {
    const url = rendererAsset();
    const built = fs.readFileSync(path.join(DEFAULT_WEB_DIR, url.slice('/app/'.length)));
    const br = await t.request({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toContain('immutable');
    expect(br.rawPayload.length).toBeLessThan(built.length / 2);
    expect(brotliDecompressSync(br.rawPayload).equals(built)).toBe(true);

    const gz = await t.request({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).equals(built)).toBe(true);

    const plain = await t.request({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(built)).toBe(true);
    const none = await t.request({ method: 'GET', url });
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.rawPayload.equals(built)).toBe(true);
  });

  it('sends the WebAssembly of the scan check compressed, as application/wasm', async () => {
    const file = fs.readdirSync(path.join(DEFAULT_WEB_DIR, 'assets')).find((f) => /^zxing_reader-.*\.wasm$/.test(f));
    const res = await t.request({ method: 'GET', url: `/app/assets/${file}`, headers: { 'accept-encoding': 'br' } });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toBe('application/wasm');
  });

  it('sends a font as it is (woff is compressed inside)', async () => {
    const font = fs.readdirSync(path.join(DEFAULT_WEB_DIR, 'assets')).find((f) => f.endsWith('.woff'));
    const res = await t.request({ method: 'GET', url: `/app/assets/${font}`, headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(fs.existsSync(path.join(DEFAULT_WEB_DIR, 'assets', `${font}.br`))).toBe(false);
  });

  it('leaves short links alone: a redirect is as bare as before', async () => {
    const key = await t.key();
    const made = await t.request({
      method: 'POST',
      url: '/v1/qr',
      key,
      payload: { title: 'Shop', url: 'https://example.com/' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const code = (made.json() as { item: { code: string } }).item.code;
    const res = await t.request({ method: 'GET', url: `/r/${code}`, headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(302);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBeUndefined();
  });
});

describe('weight of the sign-in page', () => {
  it('loads at most 60 kB of JavaScript, gzipped, on first load', () => {
    const html = fs.readFileSync(path.join(DEFAULT_WEB_DIR, 'index.html'), 'utf8');
    const entries = [...html.matchAll(/(?:src|href)="\/app\/(assets\/[^"]+\.js)"/g)].map((m) => m[1] as string);
    // The entry and every chunk it imports statically; lazy pages (import()) are not loaded for sign-in.
    const seen = new Set<string>();
    const visit = (rel: string) => {
      if (seen.has(rel)) return;
      seen.add(rel);
      const code = fs.readFileSync(path.join(DEFAULT_WEB_DIR, rel), 'utf8');
      for (const m of code.matchAll(/(?:^|[;}\s])import\s*(?:[\w${}\s,*]+from\s*)?["']\.\/([^"']+\.js)["']/g))
        visit(path.posix.join('assets', m[1] as string));
    };
    entries.forEach(visit);
    const gz = [...seen].reduce((sum, rel) => sum + gzipSync(fs.readFileSync(path.join(DEFAULT_WEB_DIR, rel)), { level: 9 }).length, 0);
    console.log(`sign-in page first load: ${seen.size} JS file(s), ${(gz / 1024).toFixed(1)} kB gzipped`);
    expect(entries.length).toBeGreaterThan(0);
    expect(gz).toBeLessThanOrEqual(60 * 1024);
  });
});
