import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePng, readPngSize } from '../render/decode.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await makeTestApp();
  key = await t.key('img');
});
afterAll(() => t.close());

async function item(body: object) {
  const res = await t.request({ method: 'POST', url: '/v1/qr', key, payload: { title: 'img', url: 'https://example.com', ...body } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { item: { id: string; shortUrl: string; design: { resolution: number } }; warnings: string[] };
}

describe('QR images', () => {
  it('serves a PNG exactly `resolution` wide that decodes to the shortUrl, with caching headers', async () => {
    const { item: it } = await item({
      dotsStyle: 'rounded',
      cornerSquare: 'extra-rounded',
      isGradient: true,
      color1: '#1a237e',
      color2: '#880e4f',
      resolution: 600,
      frameStyle: 'bottom-banner',
    });
    const res = await t.request({ method: 'GET', url: `/v1/qr/${it.id}/image.png`, key });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('private, max-age=300');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(readPngSize(res.rawPayload).width).toBe(600);
    expect(await decodePng(res.rawPayload)).toBe(it.shortUrl);
    const again = await t.request({
      method: 'GET',
      url: `/v1/qr/${it.id}/image.png`,
      key,
      headers: { 'if-none-match': res.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('serves a self-contained SVG with a CSP, and honours ?size', async () => {
    const { item: it } = await item({ frameStyle: 'badge', frameText: '<script>x</script>' });
    const res = await t.request({ method: 'GET', url: `/v1/qr/${it.id}/image.svg?size=500`, key });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:");
    expect(res.body).toMatch(/^<svg [^>]*width="500"/);
    expect(res.body).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);
    const png = await t.request({ method: 'GET', url: `/v1/qr/${it.id}/image.png?size=500`, key });
    expect(readPngSize(png.rawPayload).width).toBe(500);
  });

  it('changes the ETag when the design changes', async () => {
    const { item: it } = await item({});
    const a = await t.request({ method: 'GET', url: `/v1/qr/${it.id}/image.svg`, key });
    await t.request({ method: 'PATCH', url: `/v1/qr/${it.id}`, key, payload: { dotsStyle: 'dots' } });
    const b = await t.request({
      method: 'GET',
      url: `/v1/qr/${it.id}/image.svg`,
      key,
      headers: { 'if-none-match': a.headers.etag as string },
    });
    expect(b.statusCode).toBe(200);
    expect(b.headers.etag).not.toBe(a.headers.etag);
  });

  it('answers 400 for sizes out of bounds, 404 for other accounts, 403 without qr:read', async () => {
    const { item: it } = await item({});
    for (const size of ['499', '2501', '1000.5', 'big']) {
      const res = await t.request({ method: 'GET', url: `/v1/qr/${it.id}/image.png?size=${size}`, key });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(/^size: /);
    }
    expect((await t.request({ method: 'GET', url: `/v1/qr/${it.id}/image.png?size=2500`, key })).statusCode).toBe(200);
    const other = await t.key('img-other');
    expect((await t.request({ method: 'GET', url: `/v1/qr/${it.id}/image.svg`, key: other })).statusCode).toBe(404);
    const writer = await t.key('img', 'qr:write');
    expect((await t.request({ method: 'GET', url: `/v1/qr/${it.id}/image.svg`, key: writer })).statusCode).toBe(403);
  });

  it('previews a design without storing anything', async () => {
    const before = (await t.request({ method: 'GET', url: '/v1/qr?limit=200', key })).json().items.length;
    const res = await t.request({
      method: 'POST',
      url: '/v1/qr/preview?format=png&size=500',
      key,
      payload: { data: 'https://example.com/preview', design: { dotsStyle: 'classy' } },
    });
    expect(res.statusCode).toBe(200);
    expect(await decodePng(res.rawPayload)).toBe('https://example.com/preview');
    const svg = await t.request({ method: 'POST', url: '/v1/qr/preview', key, payload: { dotsStyle: 'dots' } });
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect((await t.request({ method: 'POST', url: '/v1/qr/preview', key, payload: { logoSize: 0.9 } })).json().error).toMatch(
      /^logoSize: /,
    );
    expect((await t.request({ method: 'POST', url: '/v1/qr/preview?format=gif', key, payload: {} })).json().error).toMatch(/^format: /);
    const tooLong = await t.request({
      method: 'POST',
      url: '/v1/qr/preview',
      key,
      payload: { data: 'x'.repeat(3500), errorCorrectionLevel: 'H' },
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error).toMatch(/^data: /);
    expect((await t.request({ method: 'GET', url: '/v1/qr?limit=200', key })).json().items.length).toBe(before);
  });

  it('warns about designs phones may fail to scan', async () => {
    const low = await item({ color1: '#dddddd', bgColor: '#ffffff' });
    expect(low.warnings.length).toBeGreaterThan(0);
    const res = await t.request({ method: 'PATCH', url: `/v1/qr/${low.item.id}`, key, payload: { color1: '#000000' } });
    expect(res.json().warnings).toEqual([]);
  });

  it('warns when a long short link makes a code whose logo hides an alignment pattern', async () => {
    const long = await makeTestApp({ PUBLIC_BASE_URL: 'https://links.a-rather-long-company-domain.example' });
    try {
      const longKey = await long.key('img');
      const create = async (errorCorrectionLevel: string) => {
        const res = await long.request({
          method: 'POST',
          url: '/v1/qr',
          key: longKey,
          payload: { title: 'logo', url: 'https://example.com', presetLogo: 'link', errorCorrectionLevel },
        });
        expect(res.statusCode, res.body).toBe(201);
        return res.json() as { item: { id: string; shortUrl: string }; warnings: string[] };
      };
      const h = await create('H');
      expect(h.item.shortUrl.length).toBeGreaterThan(58); // more than version 6 holds at H
      expect(h.warnings).toEqual([
        expect.stringMatching(
          /^At error-correction level H this content makes a large code \(version 7\) whose logo covers one of its alignment marks/,
        ),
      ]);
      expect((await create('Q')).warnings).toEqual([]);
      const fixed = await long.request({
        method: 'PATCH',
        url: `/v1/qr/${h.item.id}`,
        key: longKey,
        payload: { errorCorrectionLevel: 'Q' },
      });
      expect(fixed.json().warnings).toEqual([]);
      const batch = await long.request({
        method: 'POST',
        url: '/v1/qr/batch',
        key: longKey,
        payload: {
          items: [
            { title: 'a', url: 'https://example.com/a', presetLogo: 'wifi', errorCorrectionLevel: 'H' },
            { title: 'b', url: 'https://example.com/b', errorCorrectionLevel: 'H' },
          ],
        },
      });
      expect(batch.statusCode, batch.body).toBe(201);
      const [a, b] = batch.json().items as { warnings: string[] }[];
      expect(a!.warnings).toEqual([expect.stringMatching(/covers one of its alignment marks/)]);
      expect(b!.warnings).toEqual([]);
    } finally {
      await long.close();
    }
    // On a short base URL the same design makes a smaller code, with nothing hidden.
    expect((await item({ presetLogo: 'link', errorCorrectionLevel: 'H' })).warnings).toEqual([]);
  });
});
