// A ZIP of a filter's (or a tagged batch's) images: one file per code, each exactly what its
// image route gives and decoding to its short link; a code that cannot be drawn is listed in
// errors.txt instead of ending the download.
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { QrItemsRepository } from '../../src/db/qr-items/qr-items-repository.ts';
import { ON_POSTGRES } from '../support/databases.ts';
import { resolveDesign } from '../../src/domain/design/design.ts';
import { decodePng } from '../render/decode.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

let t: TestApp;
let key: string;
beforeAll(async () => {
  // 300 ms of CPU per image: ordinary 500 px codes are far under it, the costly logo below far over.
  t = await makeTestApp({ RENDER_TIMEOUT_MS: '300' });
  key = await t.key('zip');
});
afterAll(() => t.close());

const create = async (title: string, tags: string[]) =>
  (
    await t.request({ method: 'POST', url: '/v1/qr', key, payload: { title, url: 'https://example.com/menu', tags, resolution: 500 } })
  ).json().item;
const download = (query: string) => t.request({ method: 'GET', url: `/v1/qr/export.zip?${query}`, key });

describe('ZIP of images', () => {
  it('holds one PNG per code of the batch, named after title and code, each the item image and decoding to its short link', async () => {
    const batch = [
      await create('Spring menu', ['batch-1']),
      await create('Spring menu', ['batch-1']),
      await create('Ticket #3 / Ä', ['batch-1']),
    ];
    await create('Other', ['batch-2']);
    const res = await download('tag=batch-1');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe('attachment; filename="qr-codes-png.zip"');
    const files = unzipSync(new Uint8Array(res.rawPayload));
    expect(Object.keys(files).sort()).toEqual(
      [`spring-menu-${batch[0].code}.png`, `spring-menu-${batch[1].code}.png`, `ticket-3-a-${batch[2].code}.png`].sort(),
    );
    for (const item of batch) {
      const name = Object.keys(files).find((n) => n.includes(item.code))!;
      const png = Buffer.from(files[name]!);
      const direct = await t.request({ method: 'GET', url: `/v1/qr/${item.id}/image.png`, key });
      expect(png.equals(direct.rawPayload)).toBe(true);
      expect(await decodePng(png)).toBe(item.shortUrl);
    }
  });

  it.skipIf(ON_POSTGRES)('reads its codes in the read workers on SQLite, never on the thread that answers short links', async () => {
    for (let i = 0; i < 3; i++) await create(`Worker ${i}`, ['batch-read']);
    const list = vi.spyOn(QrItemsRepository.prototype, 'list');
    try {
      const before = t.services.reads.pool!.stats.completed.listPage;
      const res = await download('tag=batch-read&format=svg');
      expect(res.statusCode).toBe(200);
      expect(Object.keys(unzipSync(new Uint8Array(res.rawPayload)))).toHaveLength(3);
      expect(t.services.reads.pool!.stats.completed.listPage - before).toBe(1);
      expect(list).not.toHaveBeenCalled();
    } finally {
      list.mockRestore();
    }
  });

  it('gives SVG at a chosen size, and answers 400 for a bad format or size', async () => {
    const item = await create('Vector', ['batch-svg']);
    const files = unzipSync(new Uint8Array((await download('tag=batch-svg&format=svg&size=800')).rawPayload));
    const svg = new TextDecoder().decode(files[`vector-${item.code}.svg`]);
    expect(svg).toMatch(/^<svg [^>]*width="800"/);
    expect((await download('format=gif')).json()).toEqual({ error: 'format: must be png or svg' });
    expect((await download('size=20')).statusCode).toBe(400);
    expect((await t.request({ method: 'GET', url: '/v1/qr/export.zip' })).statusCode).toBe(401);
  });

  it('lists a code whose image is over budget in errors.txt and still delivers the others', async () => {
    const fine = await create('Fine', ['batch-3']);
    const blurs = '<feGaussianBlur stdDeviation="1"/>'.repeat(16);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><filter id="f">${blurs}</filter><rect width="10" height="10" filter="url(#f)"/></svg>`;
    const design = resolveDesign(undefined, {
      customLogoUrl: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
      logoSize: 0.5,
      errorCorrectionLevel: 'H',
      resolution: 2500,
    });
    const accountId = await t.services.keys.ensureAccount('zip');
    // Stored directly, as an item stored before logos were tried at create.
    const bomb = await t.services.items.create(accountId, {
      title: 'Bomb',
      contentType: 'url',
      payload: 'https://example.com/',
      fields: {},
      design,
      tags: ['batch-3'],
    });
    const files = unzipSync(new Uint8Array((await download('tag=batch-3')).rawPayload));
    expect(Object.keys(files).sort()).toEqual(['errors.txt', `fine-${fine.code}.png`]);
    expect(new TextDecoder().decode(files['errors.txt'])).toContain(`${bomb.code}\tBomb\tcustomLogoUrl: the logo is too expensive to draw`);
  });

  it('is a valid empty archive when nothing matches', async () => {
    const res = await download('tag=nothing-here');
    expect(res.statusCode).toBe(200);
    expect(Object.keys(unzipSync(new Uint8Array(res.rawPayload)))).toEqual([]);
  });
});
