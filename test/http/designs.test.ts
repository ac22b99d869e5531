// Saved designs (/v1/designs) over HTTP: validation at both bounds, scopes, and accounts
// kept apart. Runs on SQLite and, in the postgres project, on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DESIGN } from '../../src/domain/design/design.ts';
import { DESIGNS_PER_ACCOUNT } from '../../src/domain/saved-design.ts';
import { DesignsRepository } from '../../src/db/designs-repository.ts';
import { LIST_PAGE_DESIGN_BYTES } from '../../src/db/qr-items/qr-items-repository.ts';
import { LOGO_SVG_DATA_URL } from '../render/fixtures.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await makeTestApp();
  key = await t.key('designer');
});
afterAll(() => t.close());

const req = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, k = key) =>
  t.request({ method, url, key: k, ...(body === undefined ? {} : { payload: body as object }) });

describe('saved designs', () => {
  it('saves a design with every option answered, lists it newest first, reads, renames and deletes it', async () => {
    const first = await req('POST', '/v1/designs', { name: '  Brand blue ', design: { color1: '#1D4ED8', dotsStyle: 'rounded' } });
    expect(first.statusCode, first.body).toBe(201);
    const saved = first.json().design;
    expect(saved.name).toBe('Brand blue');
    expect(saved.design).toEqual({ ...DEFAULT_DESIGN, color1: '#1d4ed8', dotsStyle: 'rounded' });
    const second = (await req('POST', '/v1/designs', { name: 'Menu', design: { frameStyle: 'badge' } })).json().design;
    expect((await req('GET', '/v1/designs')).json().designs.map((d: { name: string }) => d.name)).toEqual(['Menu', 'Brand blue']);
    expect((await req('GET', `/v1/designs/${saved.id}`)).json().design).toEqual(saved);

    const renamed = await req('PATCH', `/v1/designs/${saved.id}`, { name: 'Brand', design: { logoSize: 0.2 } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().design).toMatchObject({ name: 'Brand', design: { ...saved.design, logoSize: 0.2 } });

    expect((await req('DELETE', `/v1/designs/${second.id}`)).json()).toEqual({ ok: true });
    expect((await req('GET', `/v1/designs/${second.id}`)).statusCode).toBe(404);
    expect((await req('DELETE', `/v1/designs/${second.id}`)).statusCode).toBe(404);
  });

  it('keeps a sanitized custom logo', async () => {
    const res = await req('POST', '/v1/designs', { name: 'Logo', design: { customLogoUrl: LOGO_SVG_DATA_URL } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().design.design.customLogoUrl).toMatch(/^data:image\/svg\+xml;base64,/);
  });

  it.each([
    [{ name: '', design: {} }, 'name: must be a string of 1 to 80 characters'],
    [{ name: 'x'.repeat(81), design: {} }, 'name: must be a string of 1 to 80 characters'],
    [{ name: '   ', design: {} }, 'name: must be 1 to 80 characters'],
    [{ name: 'Bad', design: { logoSize: 0.09 } }, 'logoSize'],
    [{ name: 'Bad', design: { logoSize: 0.51 } }, 'logoSize'],
    [{ name: 'Bad', design: { color1: 'blue' } }, 'color1: must be a hex color'],
    [{ name: 'Bad', design: { customLogoUrl: 'https://example.com/logo.png' } }, 'customLogoUrl: must be a data: URL'],
    [{ name: 'Bad', design: { dotStyle: 'square' } }, 'dotStyle'],
    [{ name: 'Bad' }, 'design'],
    [{ name: 'Bad', design: {}, extra: 1 }, 'extra'],
  ])('refuses %j with a 400 naming the field', async (body, message) => {
    const res = await req('POST', '/v1/designs', body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toContain(message);
  });

  it('accepts names of 1 and 80 characters and both ends of a range', async () => {
    expect((await req('POST', '/v1/designs', { name: 'x', design: { logoSize: 0.1 } })).statusCode).toBe(201);
    expect((await req('POST', '/v1/designs', { name: 'y'.repeat(80), design: { logoSize: 0.5 } })).statusCode).toBe(201);
  });

  it('needs qr:read to list and qr:write to change', async () => {
    const reader = await t.key('designer', 'qr:read');
    const mine = (await req('POST', '/v1/designs', { name: 'Mine', design: {} })).json().design;
    expect((await req('GET', '/v1/designs', undefined, reader)).statusCode).toBe(200);
    for (const [method, url, body] of [
      ['POST', '/v1/designs', { name: 'No', design: {} }],
      ['PATCH', `/v1/designs/${mine.id}`, { name: 'No' }],
      ['DELETE', `/v1/designs/${mine.id}`, undefined],
    ] as const) {
      const res = await req(method, url, body, reader);
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('insufficient scope: requires qr:write');
    }
  });

  it("does not show or touch another account's designs", async () => {
    const other = await t.key('someone-else');
    const mine = (await req('POST', '/v1/designs', { name: 'Private', design: {} })).json().design;
    expect((await req('GET', '/v1/designs', undefined, other)).json().designs).toEqual([]);
    expect((await req('GET', `/v1/designs/${mine.id}`, undefined, other)).statusCode).toBe(404);
    expect((await req('PATCH', `/v1/designs/${mine.id}`, { name: 'Taken' }, other)).statusCode).toBe(404);
    expect((await req('DELETE', `/v1/designs/${mine.id}`, undefined, other)).statusCode).toBe(404);
    expect((await req('GET', `/v1/designs/${mine.id}`)).json().design.name).toBe('Private');
  });

  it('pages the list once large logos fill 4 MiB, and gives every design once, newest first', async () => {
    // 200 designs with 660 KB logos would be one 130 MB answer. Stored directly: the list does not parse logos.
    const k = await t.key('heavy-designs');
    const accountId = await t.services.keys.ensureAccount('heavy-designs');
    const repo = new DesignsRepository(t.db);
    const names: string[] = [];
    for (let i = 0; i < 16; i++) {
      const logo = i % 4 === 3 ? null : `data:image/png;base64,${'A'.repeat(600_000)}`;
      names.unshift((await repo.create(accountId, `H${i}`, { ...DEFAULT_DESIGN, customLogoUrl: logo }, 200))?.name as string);
      await new Promise((r) => setTimeout(r, 2)); // distinct creation times: the order is theirs
    }
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 20; pages++) {
      const res = await req('GET', `/v1/designs${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, undefined, k);
      expect(res.statusCode).toBe(200);
      expect(res.body.length).toBeLessThan(LIST_PAGE_DESIGN_BYTES + 700_000);
      seen.push(...res.json().designs.map((d: { name: string }) => d.name));
      sizes.push(res.json().designs.length);
      cursor = res.json().nextCursor;
      if (cursor === null) break;
    }
    expect(seen).toEqual(names);
    expect(sizes.length).toBeGreaterThanOrEqual(2);
    // Small designs: all in one page, as before.
    expect((await req('GET', '/v1/designs')).json().nextCursor).toBeNull();
    expect((await req('GET', '/v1/designs?cursor=nope', undefined, k)).json()).toEqual({
      error: 'cursor: must be a cursor returned as nextCursor',
    });
  });

  it(`stops at ${DESIGNS_PER_ACCOUNT} designs per account`, async () => {
    const k = await t.key('full-account');
    for (let i = 0; i < DESIGNS_PER_ACCOUNT; i++)
      expect((await req('POST', '/v1/designs', { name: `D${i}`, design: {} }, k)).statusCode).toBe(201);
    const all = (await req('GET', '/v1/designs', undefined, k)).json();
    expect(all.designs).toHaveLength(DESIGNS_PER_ACCOUNT);
    expect(all.nextCursor).toBeNull();
    const res = await req('POST', '/v1/designs', { name: 'One too many', design: {} }, k);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(`at most ${DESIGNS_PER_ACCOUNT} designs`);
  }, 120_000);

  it(`holds the limit when creates arrive at once: ${DESIGNS_PER_ACCOUNT} and not one more`, async () => {
    // Each create counted, then inserted: 60 at once on 190 saved ended at 203 on PostgreSQL.
    const k = await t.key('racing-account');
    const accountId = await t.services.keys.ensureAccount('racing-account');
    const repo = new DesignsRepository(t.db);
    for (let i = 0; i < DESIGNS_PER_ACCOUNT - 10; i++) await repo.create(accountId, `S${i}`, DEFAULT_DESIGN, DESIGNS_PER_ACCOUNT);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => req('POST', '/v1/designs', { name: `R${i}`, design: {} }, k)));
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(10);
    expect(answers.filter((a) => a.statusCode === 400)).toHaveLength(30);
    const count = await t.db.kysely
      .selectFrom('designs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(DESIGNS_PER_ACCOUNT);
  }, 120_000);

  it('keeps every change of a design when several are sent at once', async () => {
    const { id } = (await req('POST', '/v1/designs', { name: 'Shared', design: {} })).json().design;
    const patches = [
      { dotsStyle: 'rounded' },
      { cornerSquare: 'dot' },
      { color1: '#112233' },
      { bgColor: '#fefefe' },
      { frameStyle: 'badge' },
      { frameText: 'Hi' },
      { errorCorrectionLevel: 'H' },
      { customLogoUrl: LOGO_SVG_DATA_URL },
    ];
    const answers = await Promise.all(patches.map((design) => req('PATCH', `/v1/designs/${id}`, { design })));
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    const stored = (await req('GET', `/v1/designs/${id}`)).json().design.design;
    for (const p of patches) {
      const [field, value] = Object.entries(p)[0] as [string, unknown];
      if (field === 'customLogoUrl') expect(stored.customLogoUrl, field).toMatch(/^data:image\/svg\+xml/);
      else expect(stored[field], field).toBe(value);
    }
  });
});
