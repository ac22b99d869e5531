// Requests of one account must not hold the thread that answers every short link for work
// that grows with other accounts or with the whole account (issue #30: F1, F4, F5, F7). On
// SQLite each is checked through its plan (EXPLAIN QUERY PLAN of the statements the request
// ran), never by a time; the answers are checked on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TAG_QUERY_WINDOW } from '../../src/db/qr-items/list-planner.ts';
import { TAG_SLICE } from '../../src/db/qr-items/tags-repository.ts';
import { ON_POSTGRES } from '../support/databases.ts';
import { plansDuring, plansOf } from '../support/query-plans.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

let t: TestApp;
let key: string;

beforeAll(async () => {
  // Plans are recorded on this connection: lists are read here rather than in a read worker
  // (the same repositories and queries run there).
  t = await makeTestApp({ READ_WORKERS: '0' });
  key = await t.key('neighbour-plans');
});
afterAll(() => t.close());

const req = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, k = key) =>
  t.request({ method, url, key: k, ...(body === undefined ? {} : { payload: body as object }) });

/** Creates `n` codes in one batch and answers their ids. */
async function codes(n: number, title: string, k = key, extra: Record<string, unknown> = {}): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 1_000) {
    const items = Array.from({ length: Math.min(1_000, n - i) }, (_, j) => ({
      title: `${title} ${i + j}`,
      url: `https://${title}.example/${i + j}`,
      ...extra,
    }));
    const res = await req('POST', '/v1/qr/batch', { items }, k);
    expect(res.statusCode, res.body).toBe(201);
    ids.push(...res.json().items.map((x: { item: { id: string } }) => x.item.id));
  }
  return ids;
}

const sqliteOnly = ON_POSTGRES ? it.skip : it;

describe('bulk actions read the codes they name (F4)', () => {
  sqliteOnly('pauses, resumes and deletes 200 ids by primary key, not by walking the account', async () => {
    const ids = await codes(300, 'bulkplan');
    const asked = ids.slice(0, 200);
    for (const action of ['pause', 'resume', 'delete'] as const) {
      const plans = await plansDuring(t.db, async () => {
        const res = await req('POST', '/v1/qr/bulk', { action, ids: asked });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().done).toHaveLength(200);
      });
      for (const plan of plansOf(plans, /^update "qr_items"/)) {
        expect(plan.join('\n')).toMatch(/USING INDEX sqlite_autoindex_qr_items_1 \(id=\?\)/);
      }
    }
  });

  it('answers the same as before: found in order asked, missing and deleted ids apart, other accounts untouched', async () => {
    const mine = await codes(12, 'bulksem');
    const other = await codes(2, 'bulkother', await t.key('bulk-other'));
    await req('DELETE', `/v1/qr/${mine[11]}`);
    const nope = '00000000-0000-4000-8000-000000000000';
    const asked = [mine[3], other[0], mine[1], nope, mine[11], mine[3], ...mine.slice(4, 10)];
    const res = await req('POST', '/v1/qr/bulk', { action: 'pause', ids: asked });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.done.map((d: { id: string }) => d.id)).toEqual([mine[3], mine[1], ...mine.slice(4, 10)]);
    expect(body.notFound).toEqual([other[0], nope, mine[11]]);
    const otherItem = (await req('GET', `/v1/qr/${other[0]}`, undefined, await t.key('bulk-other'))).json().item;
    expect(otherItem.active).toBe(true);
  });
});

describe('renaming and deleting a tag read each slice from the tag index (F5)', () => {
  sqliteOnly('moves each slice through a range of qr_tags_by_tag, not by ids over the rest of the tag', async () => {
    const k = await t.key('tag-slices');
    await codes(TAG_SLICE + 10, 'sliced', k, { tags: ['many'] });
    const renamed = await plansDuring(t.db, async () =>
      expect((await req('PATCH', '/v1/tags/many', { name: 'lots' }, k)).statusCode).toBe(200),
    );
    const removed = await plansDuring(t.db, async () => expect((await req('DELETE', '/v1/tags/lots', undefined, k)).statusCode).toBe(200));
    for (const plans of [renamed, removed]) {
      const slices = plansOf(plans, /^delete from "qr_tags"/);
      expect(slices).toHaveLength(2);
      for (const plan of [...slices, ...(plans === renamed ? plansOf(plans, /^insert into "qr_tags"/) : [])]) {
        // The first slice is bounded by its last entry in the index; the last slice takes the rest.
        expect(plan.join('\n')).toMatch(
          /USING (COVERING )?INDEX qr_tags_by_tag \(tag_account_id=\? AND tag=\?( AND \(item_created_at,tagged_item_id\)<\(\?,\?\))?\)/,
        );
      }
      expect(slices[0]!.join('\n')).toMatch(/\(item_created_at,tagged_item_id\)<\(\?,\?\)/);
    }
    const tags = (await req('GET', '/v1/tags', undefined, k)).json().tags;
    expect(tags).toEqual([]);
  });

  it('renames a tag of more than one slice on every code, once on codes that had both names', async () => {
    const k = await t.key('tag-rename-all');
    const ids = await codes(TAG_SLICE * 2 + 3, 'renameall', k, { tags: ['old'] });
    await req('PATCH', `/v1/qr/${ids[5]}`, { tags: ['old', 'new'] }, k);
    expect((await req('PATCH', '/v1/tags/old', { name: 'new' }, k)).statusCode).toBe(200);
    expect((await req('GET', '/v1/tags', undefined, k)).json().tags).toEqual([{ name: 'new', count: TAG_SLICE * 2 + 3 }]);
    expect((await req('GET', `/v1/qr/${ids[5]}`, undefined, k)).json().item.tags).toEqual(['new']);
  });
});

describe('the overview reads a count of the codes, not the codes (F7)', () => {
  sqliteOnly("answers GET /v1/stats without reading the account's codes", async () => {
    const k = await t.key('overview-plan');
    await codes(30, 'overview', k);
    const plans = await plansDuring(t.db, async () =>
      expect((await req('GET', '/v1/stats?days=7&tz=UTC', undefined, k)).statusCode).toBe(200),
    );
    const reads = plans.filter((p) => /from "qr_items"/.test(p.sql) && p.plan.some((line) => /qr_items_live/.test(line)));
    expect(reads.map((p) => p.sql)).toEqual([]);
  });

  it('counts live codes through creates, imports, bulk and single deletes', async () => {
    const k = await t.key('overview-count');
    const total = async () => (await req('GET', '/v1/stats?days=7&tz=UTC', undefined, k)).json().totals.codes;
    const ids = await codes(6, 'counted', k);
    expect(await total()).toBe(6);
    const imported = await t.request({
      method: 'POST',
      url: '/v1/qr/import',
      key: k,
      headers: { 'content-type': 'text/csv' },
      payload: 'title,contentType,payload\nOne,text,a\nTwo,text,b\n',
    });
    expect(imported.statusCode, imported.body).toBe(201);
    expect(await total()).toBe(8);
    await req('POST', '/v1/qr/bulk', { action: 'delete', ids: [ids[0], ids[1], ids[1]] }, k);
    await req('DELETE', `/v1/qr/${ids[2]}`, undefined, k);
    await req('DELETE', `/v1/qr/${ids[2]}`, undefined, k);
    await req('POST', '/v1/qr/bulk', { action: 'pause', ids: [ids[3]] }, k);
    expect(await total()).toBe(5);
  });
});

describe('a tag with q walks the tag in short windows (F6)', () => {
  sqliteOnly('reads TAG_QUERY_WINDOW codes of the tag between two turns, and still finds the oldest match in one request', async () => {
    const k = await t.key('tag-window');
    const ids = await codes(TAG_QUERY_WINDOW * 2 + 500, 'walked', k, { tags: ['walk'] });
    await req('PATCH', `/v1/qr/${ids[0]}`, { title: 'zz oldest' }, k);
    let page: { items: { title: string }[] } = { items: [] };
    const plans = await plansDuring(t.db, async () => (page = (await req('GET', '/v1/qr?tag=walk&q=zz', undefined, k)).json()));
    expect(page.items.map((i) => i.title)).toEqual(['zz oldest']);
    // Each window's end is found by an offset into the tag's walk: its size is the window's.
    const edges = plans.filter((p) => /from "qr_tags"/.test(p.sql) && /offset \?$/.test(p.sql));
    expect(edges.length).toBe(3);
    for (const e of edges) expect(e.params.at(-1)).toBe(TAG_QUERY_WINDOW - 1);
  });
});
