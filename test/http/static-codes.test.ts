// Static codes (issue #32): the studio draws them from the preview route, which encodes the
// content itself and stores nothing; /v1/qr still refuses an untracked item.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, makeTestApp } from '../support/test-app.ts';
import { decodePng, prepareZxing } from '../render/decode.ts';

let t: TestApp;
let key: string;

beforeAll(async () => {
  prepareZxing();
  t = await makeTestApp();
  key = await t.key('static');
});
afterAll(() => t.close());

const WIFI = 'WIFI:T:WPA;S:Lobby;P:lobby-pass-1;;';

describe('static codes', () => {
  it('are drawn by the preview route as PNG, SVG and a PDF of a width in millimetres, encoding the content itself', async () => {
    const preview = (format: string, extra = '') =>
      t.request({
        method: 'POST',
        url: `/v1/qr/preview?format=${format}${extra}`,
        key,
        payload: { data: WIFI, design: { color1: '#1e293b' } },
      });
    const png = await preview('png', '&size=600');
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(await decodePng(png.rawPayload)).toBe(WIFI);
    const svg = await preview('svg');
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    const pdf = await preview('pdf', '&mm=40');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    // 40 mm is 113.39 points.
    const box = /\/MediaBox \[([^\]]+)\]/.exec(pdf.rawPayload.toString('latin1'))?.[1]?.trim().split(/\s+/).map(Number) ?? [];
    expect(box[2]).toBeCloseTo(113.39, 1);
    const bad = await preview('pdf', '&mm=5');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('mm: must be a number of millimetres between 10 and 1000');
  });

  it('store nothing, and /v1/qr still refuses tracking: false', async () => {
    await t.request({ method: 'POST', url: '/v1/qr/preview?format=png', key, payload: { data: WIFI } });
    const list = await t.request({ method: 'GET', url: '/v1/qr', key });
    expect(list.json().items).toEqual([]);
    const refused = await t.request({
      method: 'POST',
      url: '/v1/qr',
      key,
      payload: { title: 'Static', tracking: false, url: 'https://example.com' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatch(/^tracking: /);
  });
});
