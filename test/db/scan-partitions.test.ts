// PostgreSQL's scan log partitioned by UTC month (migration 0020, db/scans/scan-partitions.ts):
// the upgrade keeps every scan, id, cursor and stats answer; the upkeep makes the months ahead,
// moves what waited in DEFAULT, and drops a month only once every account's retention and every
// consumer of the log have passed it.
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { parseDatabaseUrl } from '../../src/config.ts';
import { ApiKeysRepository } from '../../src/db/accounts/api-keys-repository.ts';
import { type Db, openDatabase } from '../../src/db/database.ts';
import { QrItemsRepository } from '../../src/db/qr-items/qr-items-repository.ts';
import { createAggregator } from '../../src/db/scans/rollup-aggregator.ts';
import { MONTHS_AHEAD, maintainScanPartitions, monthOf, monthPartition } from '../../src/db/scans/scan-partitions.ts';
import { applyRetention } from '../../src/db/scans/scan-retention.ts';
import { createScanWriter, createSeedingWriter } from '../../src/db/scans/scan-writer.ts';
import { AccountStatsRepository } from '../../src/db/stats/account-stats-repository.ts';
import { StatsRepository } from '../../src/db/stats/stats-repository.ts';
import { feedScanEvents } from '../../src/db/webhooks/scan-events.ts';
import { resolveDesign } from '../../src/domain/design/design.ts';
import type { ScanEvent } from '../../src/domain/scans/scan-batch.ts';
import { accountStats } from '../../src/domain/stats/account-stats.ts';
import { itemStats } from '../../src/domain/stats/item-stats.ts';
import { ON_POSTGRES, freshDatabaseUrl } from '../support/databases.ts';
import { postgresBefore } from '../support/old-database.ts';
import { expectedRollups, storedRollups } from '../support/rollup-check.ts';

const DAY = 86_400_000;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function fresh(): Promise<string> {
  const { url, dispose } = await freshDatabaseUrl();
  cleanups.push(dispose);
  return url;
}

async function open(url: string): Promise<Db> {
  const db = await openDatabase(parseDatabaseUrl(url));
  cleanups.push(() => db.close());
  return db;
}

async function codeOf(db: Db, accountName: string): Promise<{ accountId: string; itemId: string }> {
  const accountId = await new ApiKeysRepository(db).ensureAccount(accountName);
  const item = await new QrItemsRepository(db).create(accountId, {
    title: accountName,
    contentType: 'url',
    payload: 'https://e.example',
    fields: {},
    design: resolveDesign(undefined),
  });
  return { accountId, itemId: item.id };
}

function scansOf(code: { accountId: string; itemId: string }, times: number[], seed = 1): ScanEvent[] {
  return times.map((t, i) => ({
    itemId: code.itemId,
    accountId: code.accountId,
    scannedAt: new Date(t).toISOString(),
    isBot: (i + seed) % 7 === 0,
    device: (i + seed) % 2 ? 'mobile' : 'desktop',
    os: 'iOS',
    browser: 'Safari',
    country: (i + seed) % 3 ? 'DE' : 'FR',
    referrer: null,
    visitorHash: `v${(i * seed) % 13}`,
  }));
}

async function record(db: Db, scans: ScanEvent[], rollUp = true): Promise<void> {
  const writer = rollUp ? createSeedingWriter(db) : createScanWriter(db);
  for (const s of scans) await writer.record(s);
  await writer.drain();
}

/** The roll-ups equal the log up to their cursor. */
async function expectRollupsMatchLog(db: Db): Promise<void> {
  expect(await storedRollups(db)).toEqual((await expectedRollups(db)).snapshot);
}

async function catchUp(db: Db): Promise<void> {
  await createAggregator(db).catchUp(60_000);
}

async function partitions(db: Db): Promise<string[]> {
  const rows = await sql<{ name: string }>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'scans'::regclass order by 1`.execute(db.kysely);
  return rows.rows.map((r) => r.name);
}

async function countIn(db: Db, table: string): Promise<number> {
  return Number((await sql<{ n: number }>`select count(*) as n from ${sql.id(table)}`.execute(db.kysely)).rows[0]?.n);
}

async function scanCount(db: Db, itemId: string): Promise<number> {
  const row = await db.kysely.selectFrom('qr_items').select('scan_count').where('id', '=', itemId).executeTakeFirstOrThrow();
  return Number(row.scan_count);
}

describe.skipIf(!ON_POSTGRES)('the scan log partitioned by month', () => {
  it('upgrades a log with scans in several months, keeping every scan, id, cursor and stats answer', async () => {
    const url = await fresh();
    const old = await postgresBefore(url, '0020');
    const a = await codeOf(old, 'one');
    const b = await codeOf(old, 'two');
    const now = Date.now();
    // About 100 days: four or five months; the last scans are logged but not rolled up yet.
    const times = (n: number, seed: number) =>
      Array.from({ length: n }, (_, i) => now - ((i * 37 * seed) % 100) * DAY - ((i * 7919) % 86_000) * 1000 - 1000);
    const applied = [...scansOf(a, times(300, 1), 1), ...scansOf(b, times(200, 3), 3)];
    await record(old, applied);
    const pending = scansOf(a, times(20, 5), 5);
    await record(old, pending, false);

    const answers = async (db: Db) => {
      const stats = new StatsRepository(db);
      const out: Record<string, unknown> = {};
      for (const code of [a, b])
        for (const tz of ['UTC', 'America/New_York'])
          out[`${code.itemId} ${tz}`] = await itemStats(stats, { accountId: code.accountId, id: code.itemId, days: 120, tz });
      out.overview = await accountStats(new AccountStatsRepository(db), { accountId: a.accountId, days: 120, tz: 'Europe/Berlin' });
      return out;
    };
    const log = (db: Db) => db.kysely.selectFrom('scans').selectAll().orderBy('id').execute();
    const cursors = (db: Db) => db.kysely.selectFrom('log_cursors').selectAll().orderBy('name').execute();
    const sequence = async (db: Db) => (await sql<{ v: number }>`select last_value as v from scans_id_seq`.execute(db.kysely)).rows[0]?.v;
    const was = { answers: await answers(old), log: await log(old), cursors: await cursors(old), sequence: await sequence(old) };
    expect(was.log).toHaveLength(520);
    await old.close();

    const db = await open(url);
    expect(await answers(db)).toEqual(was.answers);
    expect(await log(db)).toEqual(was.log);
    expect(await cursors(db)).toEqual(was.cursors);
    expect(await sequence(db)).toBe(was.sequence);
    const used = [...new Set(was.log.map((s) => monthOf(new Date(s.scanned_at as string | Date).getTime())))];
    expect(used.length).toBeGreaterThanOrEqual(4);
    const expected = new Set([...used, ...Array.from({ length: MONTHS_AHEAD + 1 }, (_, i) => monthOf(now) + i)]);
    expect(await partitions(db)).toEqual([...[...expected].sort((x, y) => x - y).map((m) => monthPartition(m).name), 'scans_default']);
    expect(await countIn(db, 'scans_default')).toBe(0);

    // The pending scans are rolled up once, and a new scan takes the next id.
    await catchUp(db);
    const added = scansOf(a, [Date.now() - 500], 9);
    await record(db, added);
    const humans = (list: ScanEvent[]) => list.filter((s) => s.itemId === a.itemId && !s.isBot).length;
    expect(await scanCount(db, a.itemId)).toBe(humans(applied) + humans(pending) + humans(added));
    const last = await db.kysely.selectFrom('scans').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(Number(last.id)).toBe(Number(was.sequence) + 1);
    await expectRollupsMatchLog(db);
  });

  it('makes the current month and the next two, once, however many processes look after them at once', async () => {
    const url = await fresh();
    const one = await open(url);
    const two = await open(url);
    const later = Date.UTC(2031, 4, 10);
    const results = await Promise.all([maintainScanPartitions(one, later), maintainScanPartitions(two, later)]);
    expect(results.flatMap((r) => r.created).sort()).toEqual(['scans_2031_05', 'scans_2031_06', 'scans_2031_07']);
    expect(await partitions(one)).toEqual(expect.arrayContaining(['scans_2031_05', 'scans_2031_06', 'scans_2031_07', 'scans_default']));
    // Nothing more to do on the next run.
    expect((await maintainScanPartitions(one, later)).created).toEqual([]);
  });

  it('lets a scan of a month without a partition wait in DEFAULT, then moves it to its month, counted once', async () => {
    const db = await open(await fresh());
    const code = await codeOf(db, 'stray');
    // As the redirect writes them (a seeding writer would make their month itself).
    const applied = scansOf(code, [Date.UTC(2020, 2, 15, 12), Date.UTC(2020, 2, 16, 12)], 2);
    await record(db, applied, false);
    await catchUp(db);
    // One more not rolled up yet when it moves.
    const pending = scansOf(code, [Date.UTC(2020, 2, 17, 12)], 4);
    await record(db, pending, false);
    expect(await countIn(db, 'scans_default')).toBe(3);
    const ids = await db.kysely.selectFrom('scans').select('id').orderBy('id').execute();

    const upkeep = await maintainScanPartitions(db);
    expect(upkeep).toMatchObject({ created: ['scans_2020_03'], moved: 3 });
    expect(await countIn(db, 'scans_default')).toBe(0);
    expect(await countIn(db, 'scans_2020_03')).toBe(3);
    expect(await db.kysely.selectFrom('scans').select('id').orderBy('id').execute()).toEqual(ids);
    await catchUp(db);
    expect(await scanCount(db, code.itemId)).toBe([...applied, ...pending].filter((s) => !s.isBot).length);
    await expectRollupsMatchLog(db);
  });

  it('drops a month only once every account’s retention has passed it and every consumer of the log has read it', async () => {
    const db = await open(await fresh());
    const now = Date.now();
    const old = monthOf(now) - 6;
    const inOld = Date.parse(`${monthPartition(old).from}T12:00:00.000Z`);
    const short = await codeOf(db, 'short');
    const forever = await codeOf(db, 'forever');
    const keys = new ApiKeysRepository(db);
    await keys.setScanRetention(short.accountId, 30);
    const scans = [...scansOf(short, [inOld, inOld + DAY, now - 1000], 1), ...scansOf(forever, [inOld + 2 * DAY, now - 2000], 2)];
    await record(db, scans);
    await maintainScanPartitions(db, now);
    const name = monthPartition(old).name;
    expect(await countIn(db, name)).toBe(3);
    const counts = { short: await scanCount(db, short.itemId), forever: await scanCount(db, forever.itemId) };

    // An account keeping its scans forever keeps every month.
    await applyRetention(db, now);
    expect(await maintainScanPartitions(db, now)).toMatchObject({ dropped: [] });
    // A retention long enough to reach back into the month keeps it too.
    await keys.setScanRetention(forever.accountId, 365);
    await applyRetention(db, now);
    expect(await maintainScanPartitions(db, now)).toMatchObject({ dropped: [] });
    // Both past it, but the webhooks' feed has not read its scans: kept (and retention deleted none of them either).
    await keys.setScanRetention(forever.accountId, 60);
    expect(await maintainScanPartitions(db, now)).toMatchObject({ dropped: [] });
    await applyRetention(db, now);
    expect(await maintainScanPartitions(db, now)).toMatchObject({ dropped: [] });
    expect(await countIn(db, name)).toBe(3);

    while ((await feedScanEvents(db)) > 0);
    expect(await maintainScanPartitions(db, now)).toMatchObject({ dropped: [name], deferred: [] });
    expect(await partitions(db)).not.toContain(name);
    expect(await partitions(db)).toContain(monthPartition(monthOf(now)).name);
    // The month's raw scans are gone; this month's and every total stay.
    expect(await db.kysely.selectFrom('scans').select('scanned_at').execute()).toHaveLength(2);
    expect(await scanCount(db, short.itemId)).toBe(counts.short);
    expect(await scanCount(db, forever.itemId)).toBe(counts.forever);
  });
});
