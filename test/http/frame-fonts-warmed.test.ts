// Frame text is laid out on the main thread for its warnings, and loading a font there the
// first time (a Korean slice 40–150 ms) would hold up the short links. Create, update and batch
// warm the fonts their text needs off the thread first; the layout then reads none itself.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frameFontFilesFor } from '../../src/render/frame-text-coverage.ts';
import { blockingFontReads, nodeFontSource, warmFontsFor } from '../../src/render/node-font-source.ts';
import { woffToSfnt } from '../../src/render/woff.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await makeTestApp();
  key = await t.key('acme');
});
afterAll(() => t.close());

const framed = (frameText: string) => ({ frameStyle: 'bottom-banner', frameText });

describe('frame text fonts on the thread answering the short links', () => {
  it('are warmed before create, update and batch lay the text out', async () => {
    const made = await t.request({
      method: 'POST',
      url: '/v1/qr',
      key,
      payload: { title: 'A', url: 'https://example.com/a', ...framed('스캔하세요') },
    });
    expect(made.statusCode, made.body).toBe(201);
    const changed = await t.request({ method: 'PATCH', url: `/v1/qr/${made.json().item.id}`, key, payload: framed('สแกนเลย ★') });
    expect(changed.statusCode, changed.body).toBe(200);
    const batch = await t.request({
      method: 'POST',
      url: '/v1/qr/batch',
      key,
      // The Arabic line is long enough to wrap before its digits, which then take the Latin font.
      payload: {
        items: ['امسح الرمز', 'स्कैन करें', '😀 scan', '扫码点餐', 'امسح الرمز الموجود هنا للحصول على 1234567890 خصم'].map((text, i) => ({
          title: text,
          url: `https://example.com/${i}`,
          ...framed(text),
        })),
      },
    });
    expect(batch.statusCode, batch.body).toBe(201);
    expect(blockingFontReads()).toBe(0);
  });

  it('still lays the text out: a Chinese text too long for the phone frame is warned about', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/qr',
      key,
      payload: {
        title: 'B',
        url: 'https://example.com/b',
        frameStyle: 'phone',
        frameText: '欢迎光临我们的餐厅请扫描二维码查看完整菜单并在线点餐欢迎光临我们的餐厅请扫描二维码',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().warnings.some((w: string) => w.startsWith('The frame text is too long to read easily'))).toBe(true);
    expect(blockingFontReads()).toBe(0);
  });

  it('unpack each file to the same bytes as the synchronous path', async () => {
    const [file] = frameFontFilesFor('Ελληνικά');
    await warmFontsFor('Ελληνικά');
    const warmed = nodeFontSource.read(file as string) as Uint8Array;
    const raw = readFileSync(createRequire(import.meta.url).resolve(file as string));
    expect(Buffer.from(warmed).equals(Buffer.from(woffToSfnt(new Uint8Array(raw))))).toBe(true);
    expect(Buffer.from(warmed.subarray(0, 4)).toString('latin1')).not.toBe('wOFF');
  });
});
