// `q` and the list filters against a reference written in plain TypeScript, on the
// database of the project (SQLite, and PostgreSQL in the postgres project), and, when a
// PostgreSQL server is given, the same queries on both databases side by side.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeysRepository } from '../../src/db/accounts/api-keys-repository.ts';
import { type Db, openDatabase } from '../../src/db/database.ts';
import { type ListQuery, QrItemsRepository } from '../../src/db/qr-items/qr-items-repository.ts';
import { parseDatabaseUrl } from '../../src/config.ts';
import { resolveDesign } from '../../src/domain/design/design.ts';
import type { ContentType } from '../../src/domain/payload/index.ts';
import type { QrItemRecord } from '../../src/domain/qr-items/qr-item.ts';
import { foldForSearch } from '../../src/domain/qr-items/search-text.ts';
import { TEST_DATABASE_URL, freshDatabaseUrl } from '../support/databases.ts';

// Mixed case, accents composed and decomposed, final sigma, dotted I, ligatures, CJK,
// emoji, and the characters LIKE treats specially.
const TOKENS = [
  'Café',
  'CAFE\u0301',
  'Straße',
  'ΟΔΟΣ',
  'οδός',
  'İstanbul',
  'ǅemal',
  'ﬁle',
  '100%',
  'a_b',
  'x"y',
  'back\\slash',
  'ticket',
  'Ticket',
  'TICKET',
  '12',
  '123',
  '4567',
  'Menu',
  'menü',
  '漢字テスト',
  '😀qr',
  'ab',
  'AB',
  'gala',
  'GaLa',
  'x',
];
const KINDS: ContentType[] = ['url', 'text', 'wifi', 'email'];

/** A small deterministic generator, so a failure can be replayed. */
function prng(seed: number) {
  let s = seed;
  const next = () => (s = (s * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  return { next, pick: <T>(a: readonly T[]) => a[Math.floor(next() * a.length)] as T, int: (n: number) => Math.floor(next() * n) };
}

interface Corpus {
  accountId: string;
  otherAccountId: string;
  items: QrItemRecord[];
}

/** 1,200 codes: more than a text search reads in order before it asks the index. */
async function seedCorpus(db: Db): Promise<Corpus> {
  const keys = new ApiKeysRepository(db);
  const accountId = await keys.ensureAccount('search');
  const otherAccountId = await keys.ensureAccount('other');
  const repo = new QrItemsRepository(db);
  const r = prng(7);
  const design = resolveDesign(undefined);
  const items: QrItemRecord[] = [];
  const add = async (account: string, title: string, contentType: ContentType, payload: string) => {
    const item = await repo.create(account, { title, contentType, payload, fields: {}, design });
    if (account === accountId) items.push(item);
    return item;
  };
  // The oldest code holds the only "Zanzibar": found through the index, never by the walk.
  await add(accountId, 'Zanzibar oldest', 'text', 'rare words only here');
  await add(otherAccountId, 'Café of another account', 'text', 'Café');
  for (let i = 0; i < 1_200; i++) {
    const title = Array.from({ length: 1 + r.int(3) }, () => r.pick(TOKENS)).join(r.pick([' ', '-', '']));
    const kind = r.pick(KINDS);
    const payload = kind === 'url' ? `https://example.com/${r.pick(TOKENS)}/${i}` : `${r.pick(TOKENS)} ${r.pick(TOKENS)} ${i}`;
    const item = await add(accountId, title, kind, payload);
    if (i % 17 === 0) await repo.update(accountId, item.id, { active: false }).then((u) => u && Object.assign(item, u));
    if (i % 41 === 0) {
      await repo.softDelete(accountId, item.id);
      items.splice(items.indexOf(item), 1);
    }
  }
  return { accountId, otherAccountId, items };
}

function queries(corpus: Corpus): string[] {
  const r = prng(11);
  const out = [
    'é',
    'É',
    'e\u0301',
    'σ',
    'ς',
    'ΟΔΟΣ',
    'i̇',
    '%',
    '_',
    '"',
    '\\',
    '://',
    'zzzz',
    'TICKET',
    'ticket 1',
    '漢字',
    '😀',
    'Zanzibar',
    'ab',
    'x',
    '0%',
    'A_B',
    // A common word with a rare one (PostgreSQL asks its index for the rare one only), and words that are all common.
    'zanzibar OLDEST',
    'ticket zanzibar',
    'rare words only here',
    'ticket 4567',
    'gala menu',
    'ticket ab 123',
  ];
  for (let i = 0; i < 40; i++) {
    const item = r.pick(corpus.items);
    const text = r.next() < 0.5 ? item.title : item.payload;
    const chars = [...text];
    const start = r.int(chars.length);
    let q = chars.slice(start, start + 1 + r.int(6)).join('');
    if (r.next() < 0.3) q = q.toUpperCase();
    if (q.trim() !== '') out.push(q);
  }
  return out;
}

const FILTERS: Omit<ListQuery, 'limit'>[] = [
  {},
  { active: false },
  { active: true },
  { contentType: 'wifi' },
  { active: false, contentType: 'text' },
];

/** What the list must answer, computed without a database. */
function reference(corpus: Corpus, filter: Omit<ListQuery, 'limit'>): string[] {
  const q = filter.q ? foldForSearch(filter.q) : '';
  return corpus.items
    .filter((i) => filter.active === undefined || i.active === filter.active)
    .filter((i) => filter.contentType === undefined || i.contentType === filter.contentType)
    .filter((i) => q === '' || foldForSearch(i.title).includes(q) || foldForSearch(i.payload).includes(q))
    .sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1))
    .map((i) => i.id);
}

/** Every page of one query, following the cursors. */
async function allPages(repo: QrItemsRepository, accountId: string, filter: Omit<ListQuery, 'limit'>, limit = 40): Promise<string[]> {
  const ids: string[] = [];
  let cursor: ListQuery['cursor'];
  for (let guard = 0; guard < 2_000; guard++) {
    const page = await repo.list(accountId, { ...filter, limit, cursor });
    ids.push(...page.items.map((i) => i.id));
    const last = page.items.at(-1);
    const after = page.resumeAfter ?? (last ? { createdAt: last.createdAt, id: last.id } : undefined);
    if (!page.more || !after) return ids;
    cursor = after;
  }
  throw new Error('paging did not end');
}

describe('text search and filters on the project database', () => {
  let db: Db;
  let dispose: () => Promise<void>;
  let corpus: Corpus;
  beforeAll(async () => {
    const fresh = await freshDatabaseUrl();
    dispose = fresh.dispose;
    db = await openDatabase(parseDatabaseUrl(fresh.url));
    corpus = await seedCorpus(db);
  });
  afterAll(async () => {
    await db.close();
    await dispose();
  });

  it('answers every filter, and q with every filter, exactly as the reference, page by page', async () => {
    const repo = new QrItemsRepository(db);
    for (const filter of FILTERS)
      expect(await allPages(repo, corpus.accountId, filter), JSON.stringify(filter)).toEqual(reference(corpus, filter));
    for (const q of queries(corpus)) {
      for (const filter of [{}, { active: false }, { contentType: 'url' as const }]) {
        const f = { ...filter, q };
        expect(await allPages(repo, corpus.accountId, f), JSON.stringify(f)).toEqual(reference(corpus, f));
      }
    }
  });

  it('walks a search without an index a window at a time, and the pages still hold every match in order', async () => {
    // Windows of 37 codes, 3 a request: a request reads at most 111 codes, and a rare match
    // is reached over several pages, some of them empty with a cursor to go on from.
    const repo = new QrItemsRepository(db, { window: 37, windows: 3 });
    let empties = 0;
    for (const q of ['é', 'ab', 'x', '%', 'zz', '://', 'ς']) {
      for (const filter of [{}, { active: false }, { contentType: 'url' as const }]) {
        const f = { ...filter, q };
        expect(await allPages(repo, corpus.accountId, f, 7), JSON.stringify(f)).toEqual(reference(corpus, f));
      }
      const first = await repo.list(corpus.accountId, { limit: 50, q });
      if (first.items.length === 0 && first.more) empties++;
    }
    // A miss reads at most 111 codes and says where it stopped.
    const miss = await repo.list(corpus.accountId, { limit: 50, q: 'zz' });
    expect(miss.items).toEqual([]);
    expect(miss.more).toBe(true);
    expect(miss.resumeAfter).toEqual({ createdAt: expect.any(String), id: expect.any(String) });
    expect(empties).toBeGreaterThan(0);
  });

  it('walks a tag with q a window at a time too', async () => {
    const accountId = await new ApiKeysRepository(db).ensureAccount('tag-walk');
    const plain = new QrItemsRepository(db);
    const design = resolveDesign(undefined);
    const needles: string[] = [];
    let needle18 = '';
    for (let i = 0; i < 60; i++) {
      const title = i % 9 === 0 ? `needle ${i}` : `hay ${i}`;
      const item = await plain.create(accountId, {
        title,
        contentType: 'text',
        payload: 'x',
        fields: {},
        design,
        tags: i % 2 === 0 ? ['t'] : ['u'],
      });
      if (i % 9 === 0 && i % 2 === 0) needles.unshift(item.id);
      if (i === 18) needle18 = item.id;
    }
    const repo = new QrItemsRepository(db, { window: 5, windows: 2 });
    for (const q of ['needle', 'ne', 'NEEDLE 18']) {
      const expected = q === 'NEEDLE 18' ? [needle18] : needles;
      expect(await allPages(repo, accountId, { tag: 't', q }, 2), q).toEqual(expected);
    }
  });

  it('misses no code when another request deletes one inside the window being read', async () => {
    const accountId = await new ApiKeysRepository(db).ensureAccount('walk-race');
    const design = resolveDesign(undefined);
    const plain = new QrItemsRepository(db);
    const ids: Record<string, string> = {};
    // Oldest first: n1 is the newest. The only match is the fourth code, in the second window.
    for (const title of ['m1', 'm2', 'é-match', 'n3', 'n2', 'n1']) {
      ids[title] = (
        await plain.create(accountId, { title, contentType: 'url', payload: 'https://e.example', fields: {}, design, tags: ['t'] })
      ).id;
    }
    const repo = new QrItemsRepository(db, { window: 3, windows: 20 });
    // Just before the first window's end is looked up, another request deletes a code of it.
    // (When the matches were read before the end, that moved the end past the match unread.)
    const hooked = (repo as unknown as { planner: { tagEdge: (...args: unknown[]) => Promise<unknown> } }).planner;
    const edgeOf = hooked.tagEdge.bind(hooked);
    let first = true;
    hooked.tagEdge = async (...args: unknown[]) => {
      if (first) {
        first = false;
        await plain.softDelete(accountId, ids.n2 as string);
      }
      return edgeOf(...args);
    };
    const page = await repo.list(accountId, { limit: 10, tag: 't', q: 'é' });
    expect(page.items.map((i) => i.title)).toEqual(['é-match']);
    expect(page.more).toBe(false);
  });

  it('finds a code older than the newest thousand through the text index, in its own account only', async () => {
    const repo = new QrItemsRepository(db);
    const page = await repo.list(corpus.accountId, { limit: 50, q: 'zanZIBAR' });
    expect(page.items.map((i) => i.title)).toEqual(['Zanzibar oldest']);
    const other = await repo.list(corpus.otherAccountId, { limit: 50, q: 'zanzibar' });
    expect(other.items).toEqual([]);
  });

  it('folds case beyond ASCII and treats %, _ and quotes as plain characters', async () => {
    const repo = new QrItemsRepository(db);
    const found = async (q: string) => (await repo.list(corpus.accountId, { limit: 200, q })).items.map((i) => `${i.title}\n${i.payload}`);
    const cafe = await found('CAFÉ');
    for (const t of cafe) expect(foldForSearch(t)).toContain('café');
    expect(cafe.some((t) => t.includes('CAFE\u0301'))).toBe(true);
    expect(cafe.some((t) => t.includes('Café'))).toBe(true);
    expect((await found('οδος')).some((t) => t.includes('ΟΔΟΣ'))).toBe(true);
    const underscores = await found('_');
    expect(underscores.length).toBeGreaterThan(0);
    for (const t of underscores) expect(t).toContain('_');
    for (const t of await found('0%')) expect(t).toContain('0%');
  });
});

/** A PostgreSQL schema of its own, whatever project this file runs in. */
async function freshPostgresSchema(base: string): Promise<{ url: string; dispose(): Promise<void> }> {
  const schema = 't_' + randomBytes(6).toString('hex');
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    async dispose() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    },
  };
}

describe.runIf(TEST_DATABASE_URL !== null && process.env.QRTRACK_TEST_DB !== 'postgres')('the same search on SQLite and PostgreSQL', () => {
  it('gives the same codes in the same order for every query and filter', async () => {
    const sqliteFresh = await freshDatabaseUrl();
    const pgFresh = await freshPostgresSchema(TEST_DATABASE_URL as string);
    const sqliteDb = await openDatabase(parseDatabaseUrl(sqliteFresh.url));
    const pgDb = await openDatabase(parseDatabaseUrl(pgFresh.url));
    try {
      const [a, b] = [await seedCorpus(sqliteDb), await seedCorpus(pgDb)];
      const titlesOf = (c: Corpus, ids: string[]) => ids.map((id) => c.items.find((i) => i.id === id)?.title);
      for (const q of queries(a)) {
        for (const filter of FILTERS) {
          const f = { ...filter, q };
          const onSqlite = titlesOf(a, await allPages(new QrItemsRepository(sqliteDb), a.accountId, f));
          const onPostgres = titlesOf(b, await allPages(new QrItemsRepository(pgDb), b.accountId, f));
          expect(onPostgres, JSON.stringify(f)).toEqual(onSqlite);
        }
      }
    } finally {
      await sqliteDb.close();
      await pgDb.close();
      await sqliteFresh.dispose();
      await pgFresh.dispose();
    }
  }, 120_000);
});
