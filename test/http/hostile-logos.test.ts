// Each hostile logo of issue 11, sent as an attacker would: create, update and preview
// answer 400 naming customLogoUrl (before the fix each of these took the process for
// tens of seconds or several GiB), nothing is stored, and a logo that slipped into the
// database some other way is refused again when it is drawn.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseLogoDataUrl } from '../../src/domain/design/logo.ts';
import { readPngSize } from '../render/decode.ts';
import { defusedLogos, ORDINARY_LOGOS, PATTERN_BOMB_SVG, refusedLogos, svgDataUrl } from '../support/hostile-logos.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await makeTestApp();
  key = await t.key('logos');
});
afterAll(() => t.close());

const count = async () => (await t.request({ method: 'GET', url: '/v1/qr?limit=200', key })).json().items.length as number;
const create = (customLogoUrl: string) =>
  t.request({
    method: 'POST',
    url: '/v1/qr',
    key,
    payload: { title: 'logo', url: 'https://example.com', customLogoUrl, errorCorrectionLevel: 'H' },
  });
const preview = (customLogoUrl: string) =>
  t.request({
    method: 'POST',
    url: '/v1/qr/preview?format=png&size=2500',
    key,
    payload: { data: 'https://example.com', design: { customLogoUrl, errorCorrectionLevel: 'H', logoSize: 0.5 } },
  });

describe('hostile logos over HTTP', () => {
  it.each(Object.entries(refusedLogos()))(
    '%s: create and preview answer 400 naming customLogoUrl, and nothing is stored',
    async (_, logo) => {
      const before = await count();
      const created = await create(logo);
      expect(created.statusCode, created.body).toBe(400);
      expect(created.json()).toEqual({
        error: expect.stringMatching(
          /^customLogoUrl: (SVG rejected: too complex \(|the image is \d+×\d+ pixels; at most 16 megapixels|SVG rejected: an embedded image: the image is)/,
        ),
      });
      const previewed = await preview(logo);
      expect(previewed.statusCode, previewed.body).toBe(400);
      expect(previewed.json().error).toBe(created.json().error);
      expect(await count()).toBe(before);
    },
  );

  it('names the size limit for a logo past 512 KiB', async () => {
    const res = await create(`data:image/png;base64,${'A'.repeat(800_001)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^customLogoUrl: .*at most 512 KiB/);
  });

  it('refuses a hostile logo in an update and keeps the stored design', async () => {
    const res = await create(svgDataUrl(ORDINARY_LOGOS['gallery logo']!));
    expect(res.statusCode).toBe(201);
    const id = res.json().item.id as string;
    const patched = await t.request({
      method: 'PATCH',
      url: `/v1/qr/${id}`,
      key,
      payload: { customLogoUrl: svgDataUrl(PATTERN_BOMB_SVG) },
    });
    expect(patched.statusCode).toBe(400);
    expect(patched.json().error).toBe('customLogoUrl: SVG rejected: too complex (pattern nesting deeper than 3)');
    const stored = (await t.request({ method: 'GET', url: `/v1/qr/${id}`, key })).json();
    expect((stored.item ?? stored).design.customLogoUrl).toBe(res.json().item.design.customLogoUrl);
  });

  it.each(Object.entries(defusedLogos()))('%s: is accepted with the hostile part dropped', async (_, logo) => {
    const res = await create(logo);
    expect(res.statusCode, res.body).toBe(201);
    const stored = Buffer.from((res.json().item.design.customLogoUrl as string).split(',')[1]!, 'base64').toString();
    expect(stored).not.toMatch(/url\(\s|image-set|image\(|evil|\s{100}/);
  });

  it.each(Object.entries(ORDINARY_LOGOS))('%s: is stored and drawn at 2500 px', async (_, svg) => {
    const res = await create(svgDataUrl(svg));
    expect(res.statusCode, res.body).toBe(201);
    const png = await t.request({ method: 'GET', url: `/v1/qr/${res.json().item.id}/image.png?size=2500`, key });
    expect(png.statusCode).toBe(200);
    expect(readPngSize(png.rawPayload).width).toBe(2500);
  });

  it('re-checks a stored logo at draw time: a bomb written straight into the database is refused, not drawn', async () => {
    const res = await create(svgDataUrl(ORDINARY_LOGOS['gallery logo']!));
    const id = res.json().item.id as string;
    const design = { ...res.json().item.design, customLogoUrl: svgDataUrl(PATTERN_BOMB_SVG) };
    expect(() => parseLogoDataUrl('customLogoUrl', design.customLogoUrl)).toThrow();
    await t.db.kysely
      .updateTable('qr_items')
      .set({ design_json: JSON.stringify(design) })
      .where('id', '=', id)
      .execute();
    const png = await t.request({ method: 'GET', url: `/v1/qr/${id}/image.png?size=2500`, key });
    expect(png.statusCode).toBe(400);
    expect(png.json().error).toBe('customLogoUrl: SVG rejected: too complex (pattern nesting deeper than 3)');
  });
});
