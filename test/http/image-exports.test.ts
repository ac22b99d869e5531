// The print-ready PDF, downloads with a file name, and frame text checked on the way in.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePng, readPngSize } from '../render/decode.ts';
import { LOGO_SVG_DATA_URL, logoPngDataUrl } from '../render/fixtures.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

let t: TestApp;
let key: string;
const work = mkdtempSync(join(tmpdir(), 'qrtrack-pdf-'));
beforeAll(async () => {
  t = await makeTestApp();
  key = await t.key('pdf');
});
afterAll(async () => {
  await t.close();
  rmSync(work, { recursive: true, force: true });
});

type Item = { id: string; code: string; shortUrl: string };

async function item(body: object, title = 'Spring menu'): Promise<{ item: Item; warnings: string[] }> {
  const res = await t.request({ method: 'POST', url: '/v1/qr', key, payload: { title, url: 'https://example.com', ...body } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** The PDF's page as pixels, drawn by poppler (Debian's poppler-utils, installed by .ci/run). */
function rasterize(pdf: Buffer, dpi = 300): Buffer {
  const file = join(work, `p${Math.random().toString(36).slice(2)}`);
  writeFileSync(`${file}.pdf`, pdf);
  execFileSync('pdftoppm', ['-r', String(dpi), '-png', '-singlefile', `${file}.pdf`, file]);
  return readFileSync(`${file}.png`);
}

function mediaBox(pdf: Buffer): number[] {
  const m = /\/MediaBox \[([^\]]+)\]/.exec(pdf.toString('latin1'));
  return (m?.[1] ?? '').trim().split(/\s+/).map(Number);
}

const imageCount = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Subtype \/Image/g) ?? []).length;

/** RGB of the pixel at the centre of the code area (where a logo sits). */
function pixelAt(png: Buffer, fx: number, fy: number): [number, number, number] {
  const { width, height } = readPngSize(png);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><image x="${-Math.floor(fx * width)}" y="${-Math.floor(fy * height)}" width="${width}" height="${height}" href="data:image/png;base64,${png.toString('base64')}"/></svg>`;
  return importResvg(svg);
}

import { Resvg } from '@resvg/resvg-js';
function importResvg(svg: string): [number, number, number] {
  const px = new Resvg(svg, { font: { loadSystemFonts: false } }).render().pixels;
  return [px[0] ?? 0, px[1] ?? 0, px[2] ?? 0];
}

describe('GET /v1/qr/{id}/image.pdf', () => {
  it('is a one-page vector PDF exactly `size` mm wide whose drawing decodes to the shortUrl', async () => {
    const { item: it } = await item({
      isGradient: true,
      color1: '#1a237e',
      color2: '#880e4f',
      frameStyle: 'bottom-banner',
      frameText: 'امسح الرمز · Scan',
    });
    const res = await t.request({ method: 'GET', url: `/v1/qr/${it.id}/image.pdf?size=40`, key });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBeUndefined();
    const pdf = res.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const [x0, y0, w, h] = mediaBox(pdf);
    expect([x0, y0]).toEqual([0, 0]);
    expect(w).toBeCloseTo((40 * 72) / 25.4, 2);
    expect(h).toBeGreaterThan(w as number); // the banner adds height
    expect(imageCount(pdf)).toBe(0); // vector: no raster inside
    const png = rasterize(pdf);
    expect(Math.abs(readPngSize(png).width - (40 / 25.4) * 300)).toBeLessThanOrEqual(1);
    expect(await decodePng(png)).toBe(it.shortUrl);
  });

  it('defaults to 50 mm and keeps its ETag per size', async () => {
    const { item: it } = await item({});
    const a = await t.request({ method: 'GET', url: `/v1/qr/${it.id}/image.pdf`, key });
    expect(mediaBox(a.rawPayload)[2]).toBeCloseTo((50 * 72) / 25.4, 2);
    const again = await t.request({
      method: 'GET',
      url: `/v1/qr/${it.id}/image.pdf`,
      key,
      headers: { 'if-none-match': a.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
    const b = await t.request({
      method: 'GET',
      url: `/v1/qr/${it.id}/image.pdf?size=51`,
      key,
      headers: { 'if-none-match': a.headers.etag as string },
    });
    expect(b.statusCode).toBe(200);
  });

  it('takes sizes from 10 to 1000 mm and answers 400 naming size outside', async () => {
    const { item: it } = await item({});
    for (const size of [10, 1000, 12.5]) {
      const res = await t.request({ method: 'GET', url: `/v1/qr/${it.id}/image.pdf?size=${size}`, key });
      expect(res.statusCode, String(size)).toBe(200);
      expect(mediaBox(res.rawPayload)[2]).toBeCloseTo((size * 72) / 25.4, 2);
    }
    for (const size of ['9.9', '1000.1', '0', '-5', 'big']) {
      const res = await t.request({ method: 'GET', url: `/v1/qr/${it.id}/image.pdf?size=${size}`, key });
      expect(res.statusCode, size).toBe(400);
      expect(res.json().error).toMatch(/^size: /);
    }
    const other = await t.key('pdf-other');
    expect((await t.request({ method: 'GET', url: `/v1/qr/${it.id}/image.pdf`, key: other })).statusCode).toBe(404);
  });

  it.each([
    ['PNG', logoPngDataUrl()],
    ['SVG', LOGO_SVG_DATA_URL],
  ])('draws a %s logo, and the code still decodes', async (_, logo) => {
    const { item: it } = await item({ customLogoUrl: logo, errorCorrectionLevel: 'H', logoSize: 0.3 });
    const pdf = (await t.request({ method: 'GET', url: `/v1/qr/${it.id}/image.pdf?size=60`, key })).rawPayload;
    expect(imageCount(pdf)).toBeGreaterThanOrEqual(1);
    const png = rasterize(pdf);
    // The logo's orange-to-pink gradient at the centre: neither the black modules nor white.
    const [r, g, b] = pixelAt(png, 0.5, 0.5);
    expect(r).toBeGreaterThan(180);
    expect(g).toBeLessThan(160);
    expect(b).toBeLessThan(200);
    expect(await decodePng(png)).toBe(it.shortUrl);
  });
});

describe('?download=1', () => {
  it('names the file after the title on svg, png and pdf, with the title itself in filename*', async () => {
    const { item: it } = await item({}, 'Café menü: "spring" 菜单');
    for (const ext of ['svg', 'png', 'pdf']) {
      const res = await t.request({ method: 'GET', url: `/v1/qr/${it.id}/image.${ext}?download=1`, key });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="cafe-menu-spring.${ext}"; filename*=UTF-8''Caf%C3%A9%20men%C3%BC%20%20spring%20%E8%8F%9C%E5%8D%95.${ext}`.replace(
          '%20%20',
          '%20',
        ),
      );
    }
    const plain = await t.request({ method: 'GET', url: `/v1/qr/${it.id}/image.svg?download=0`, key });
    expect(plain.headers['content-disposition']).toBeUndefined();
  });

  it('falls back to the code when the title has no ASCII letters, and names the preview', async () => {
    const { item: it } = await item({}, '菜单');
    const res = await t.request({ method: 'GET', url: `/v1/qr/${it.id}/image.png?download=1`, key });
    expect(res.headers['content-disposition']).toBe(`attachment; filename="qr-${it.code}.png"; filename*=UTF-8''%E8%8F%9C%E5%8D%95.png`);
    const preview = await t.request({ method: 'POST', url: '/v1/qr/preview?format=png&download=1', key, payload: {} });
    expect(preview.headers['content-disposition']).toBe(`attachment; filename="qr-preview.png"; filename*=UTF-8''QR%20preview.png`);
  });

  it('keeps a character beyond the first 120 UTF-16 units whole (half an emoji made it a 500)', async () => {
    const title = `${'a'.repeat(119)}😀`; // 120 characters, the longest title
    const { item: it } = await item({}, title);
    for (const ext of ['svg', 'png', 'pdf']) {
      const res = await t.request({ method: 'GET', url: `/v1/qr/${it.id}/image.${ext}?download=1`, key });
      expect(res.statusCode, ext).toBe(200);
      expect(res.headers['content-disposition']).toMatch(
        new RegExp(`^attachment; filename="a+\\.${ext}"; filename\\*=UTF-8''a{119}%F0%9F%98%80\\.${ext}$`),
      );
    }
  });

  it('answers 400 naming download for other values', async () => {
    const { item: it } = await item({});
    for (const v of ['2', 'yes', '-1']) {
      const res = await t.request({ method: 'GET', url: `/v1/qr/${it.id}/image.pdf?download=${v}`, key });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(/^download: /);
    }
  });
});

describe('frame text on the way in', () => {
  const egyptian = '\u{13000}';

  it('answers 400 naming the field and the character no font can draw, on create, update and preview', async () => {
    const create = await t.request({
      method: 'POST',
      url: '/v1/qr',
      key,
      payload: { title: 't', url: 'https://a.example', frameStyle: 'badge', frameText: `Scan ${egyptian}` },
    });
    expect(create.statusCode).toBe(400);
    expect(create.json().error).toBe(`frameText: no bundled font can draw U+13000 "${egyptian}"; remove or replace it`);
    const nested = await t.request({
      method: 'POST',
      url: '/v1/qr',
      key,
      payload: { title: 't', url: 'https://a.example', design: { frameText: `\u{E000}${egyptian}` } },
    });
    expect(nested.json().error).toMatch(/^design\.frameText: no bundled font can draw U\+E000, U\+13000 "/);
    const { item: it } = await item({ frameStyle: 'badge', frameText: '스캔 ★ 😀' });
    const update = await t.request({ method: 'PATCH', url: `/v1/qr/${it.id}`, key, payload: { frameText: egyptian } });
    expect(update.statusCode).toBe(400);
    expect(update.json().error).toMatch(/^frameText: /);
    const preview = await t.request({ method: 'POST', url: '/v1/qr/preview', key, payload: { design: { frameText: egyptian } } });
    expect(preview.statusCode).toBe(400);
    expect(preview.json().error).toMatch(/^design\.frameText: /);
  });

  it('warns when the text is too long to be drawn at a readable size', async () => {
    const short = await item({ frameStyle: 'bottom-banner', frameText: 'Scan to see our whole spring menu' });
    expect(short.warnings).toEqual([]);
    const long = await item({
      frameStyle: 'phone',
      frameText: '欢迎光临我们的餐厅请扫描二维码查看完整菜单并在线点餐欢迎光临我们的餐厅请扫描二维码',
    });
    expect(long.warnings.some((w) => w.startsWith('The frame text is too long to read easily'))).toBe(true);
  });
});
