// The aggregator applies the writer's committed batches from memory (the scans handed to it
// with their ids in the log) rather than reading them back: the roll-ups must still be exactly
// the log's, including when scans past the cursor were taken out of the log before the slice.
import { sql } from 'kysely';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ApiKeysRepository } from '../../src/db/accounts/api-keys-repository.ts';
import type { Db } from '../../src/db/database.ts';
import { QrItemsRepository } from '../../src/db/qr-items/qr-items-repository.ts';
import { createAggregator } from '../../src/db/scans/rollup-aggregator.ts';
import { LOGGED_SCAN_COLUMNS, type LoggedScan, type LoggedScanRow, toLoggedScan } from '../../src/db/scans/logged-scan.ts';
import { PostgresScanWriter } from '../../src/db/scans/postgres-scan-writer.ts';
import { SqliteScanWriter } from '../../src/db/scans/sqlite-scan-writer.ts';
import { resolveDesign } from '../../src/domain/design/design.ts';
import type { ScanEvent } from '../../src/domain/scans/scan-batch.ts';
import { ON_POSTGRES } from '../support/databases.ts';
import { openFreshDatabase } from '../support/fresh-database.ts';
import { expectedRollups, storedRollups } from '../support/rollup-check.ts';

/** An account with two codes, and an aggregator that is not started (each test calls catchUp). */
async function twoCodes(db: Db) {
  const accountId = await new ApiKeysRepository(db).ensureAccount('handed');
  const items = new QrItemsRepository(db);
  const make = (title: string) =>
    items.create(accountId, { title, contentType: 'url', payload: 'https://example.com/', fields: {}, design: resolveDesign(undefined) });
  const ids = [(await make('a')).id, (await make('b')).id];
  return { accountId, ids, rollups: createAggregator(db) };
}

async function setUp(db: Db) {
  const { accountId, ids, rollups } = await twoCodes(db);
  const writer = new SqliteScanWriter(db.sqlite as NonNullable<Db['sqlite']>, {
    written: (_scans, _seconds, logged) => {
      if (logged) rollups.offer(logged);
    },
    failed: () => {},
  });
  return { accountId, ids, rollups, writer };
}

/** Scans of every kind the log tells apart: bots, rules (none matched, a split's variant), refusals, repeat visitors. */
function workload(accountId: string, items: readonly string[], n: number, seed: number): ScanEvent[] {
  let s = seed;
  const rnd = () => (s = (s * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const now = Date.now();
  return Array.from({ length: n }, (_, i) => {
    const ruled = rnd() < 0.4;
    const scan: ScanEvent = {
      itemId: items[i % items.length] as string,
      accountId,
      scannedAt: new Date(now - Math.floor(rnd() * 3 * 86_400_000)).toISOString(),
      isBot: rnd() < 0.15,
      device: rnd() < 0.6 ? 'mobile' : 'desktop',
      os: rnd() < 0.5 ? 'iOS' : null,
      browser: rnd() < 0.5 ? 'Safari' : 'Chrome',
      country: rnd() < 0.5 ? 'DE' : null,
      referrer: rnd() < 0.3 ? 't.co' : null,
      visitorHash: `v${Math.floor(rnd() * 30)}`,
      outcome: rnd() < 0.1 ? 'capped' : 'redirect',
    };
    if (ruled) {
      scan.ruleId = rnd() < 0.5 ? null : 'r1';
      scan.variant = scan.ruleId === null ? null : Math.floor(rnd() * 2);
      scan.destination = `https://example.com/${scan.variant ?? 'x'}`;
    }
    return scan;
  });
}

describe.skipIf(ON_POSTGRES)('the aggregator handed committed batches (SQLite)', () => {
  it('sums them as the log says, batch after batch, with slices of every size', async () => {
    const db = await openFreshDatabase();
    const { accountId, ids, rollups, writer } = await setUp(db);
    for (let round = 0; round < 6; round++) {
      await Promise.all(workload(accountId, ids, 300 + round * 211, round + 1).map((scan) => writer.record(scan)));
      await rollups.catchUp();
    }
    const expected = await expectedRollups(db);
    expect(expected.position).toBe(expected.logged);
    expect(await storedRollups(db)).toEqual(expected.snapshot);
  });

  it('hands each scan exactly as the log holds it, with its id (batches of every size, several insert statements each)', async () => {
    const db = await openFreshDatabase();
    const sqlite = db.sqlite as NonNullable<Db['sqlite']>;
    const { accountId, ids } = await setUp(db);
    const handed: LoggedScan[] = [];
    const writer = new SqliteScanWriter(sqlite, { written: (_s, _t, logged) => void handed.push(...(logged ?? [])), failed: () => {} });
    // 1, 63, 64, 65, 129 and 600 scans a turn: one statement, a full one, one and a row, a batch past MAX_BATCH.
    for (const [n, seed] of [
      [1, 11],
      [63, 12],
      [64, 13],
      [65, 14],
      [129, 15],
      [600, 16],
    ] as const) {
      // The tracker's events carry their UTC day; the log's scanned_at decides, whatever they say.
      const days = (scan: ScanEvent, i: number): ScanEvent =>
        i % 3 === 2 ? scan : { ...scan, day: i % 3 === 0 ? scan.scannedAt.slice(0, 10) : '1999-01-01' };
      await Promise.all(workload(accountId, ids, n, seed).map((scan, i) => writer.record(days(scan, i))));
    }
    const rows = sqlite
      .prepare(`select ${LOGGED_SCAN_COLUMNS} from scans s join qr_items q on q.id = s.item_id order by s.id`)
      .all() as LoggedScanRow[];
    expect(rows).toHaveLength(922);
    expect(handed).toEqual(rows.map(toLoggedScan));
    // Each carries its UTC day as its time says, whatever day the event claimed.
    expect(handed.every((s) => s.day === s.scannedAt.slice(0, 10))).toBe(true);
  });

  it('reads the log instead when scans past the cursor were taken out of it after they were handed', async () => {
    const db = await openFreshDatabase();
    const sqlite = db.sqlite as NonNullable<Db['sqlite']>;
    const { accountId, ids, rollups, writer } = await setUp(db);
    await Promise.all(workload(accountId, ids, 500, 7).map((scan) => writer.record(scan)));
    // As a forget does: scans never counted leave the log before the aggregator's next slice.
    sqlite.prepare('delete from scans where id % 7 = 0').run();
    await rollups.catchUp();
    const expected = await expectedRollups(db);
    expect(expected.logged).toBeLessThan(500);
    expect(await storedRollups(db)).toEqual(expected.snapshot);
  });

  it('does not read back what it was handed (white box: a row changed in the log behind its back is not seen)', async () => {
    const db = await openFreshDatabase();
    const sqlite = db.sqlite as NonNullable<Db['sqlite']>;
    const { accountId, ids, rollups, writer } = await setUp(db);
    await Promise.all(workload(accountId, ids, 50, 9).map((scan) => writer.record({ ...scan, device: 'mobile' })));
    sqlite.prepare(`update scans set device = 'tablet'`).run();
    await rollups.catchUp();
    const tablets = sqlite.prepare(`select count(*) as n from scan_dims_daily where dim = 'device' and value = 'tablet'`).get() as {
      n: number;
    };
    expect(tablets.n).toBe(0);
  });
});

describe.skipIf(!ON_POSTGRES)('the aggregator handed committed batches (PostgreSQL)', () => {
  async function pgSetUp(db: Db) {
    const { accountId, ids, rollups } = await twoCodes(db);
    const handed: LoggedScan[] = [];
    const pool = db.pool as NonNullable<Db['pool']>;
    const writer = new PostgresScanWriter(pool, {
      written: (_scans, _seconds, logged) => {
        handed.push(...(logged ?? []));
        if (logged) rollups.offer(logged);
      },
      failed: () => {},
    });
    // Another process's writer: its scans share the log's ranges but are never handed.
    const other = new PostgresScanWriter(pool);
    return { accountId, ids, rollups, writer, other, handed };
  }

  it('hands each scan exactly as the log holds it, with its id, and sums them as the log says', async () => {
    const db = await openFreshDatabase();
    const { accountId, ids, rollups, writer, handed } = await pgSetUp(db);
    for (let round = 0; round < 4; round++) {
      await Promise.all(workload(accountId, ids, 200 + round * 311, round + 21).map((scan) => writer.record(scan)));
      await rollups.catchUp();
    }
    const rows = await sql<LoggedScanRow>`select ${sql.raw(LOGGED_SCAN_COLUMNS)} from scans s join qr_items q on q.id = s.item_id
      order by s.id`.execute(db.kysely);
    expect(rows.rows).toHaveLength(handed.length);
    expect(handed).toEqual(rows.rows.map(toLoggedScan));
    const expected = await expectedRollups(db);
    expect(expected.position).toBe(expected.logged);
    expect(await storedRollups(db)).toEqual(expected.snapshot);
  });

  it('reads the log for a slice where another process logged too, or a scan was taken out', async () => {
    const db = await openFreshDatabase();
    const { accountId, ids, rollups, writer, other } = await pgSetUp(db);
    const mine = workload(accountId, ids, 400, 31);
    const theirs = workload(accountId, ids, 150, 32);
    await Promise.all([...mine.map((scan) => writer.record(scan)), ...theirs.map((scan) => other.record(scan))]);
    await rollups.catchUp();
    let expected = await expectedRollups(db);
    expect(expected.logged).toBe(550);
    expect(await storedRollups(db)).toEqual(expected.snapshot);
    // 300 handed, then one scan of the other process's, then one of the handed taken out (as a
    // forget does): the range holds as many scans as were handed, but not the same ones.
    await Promise.all(workload(accountId, ids, 300, 33).map((scan) => writer.record(scan)));
    await other.record(workload(accountId, ids, 1, 35)[0] as ScanEvent);
    await sql`delete from scans where id = (select max(id) - 7 from scans)`.execute(db.kysely);
    await rollups.catchUp();
    expected = await expectedRollups(db);
    expect(expected.logged).toBe(850);
    expect(await storedRollups(db)).toEqual(expected.snapshot);
  });

  it('reads and sums the next slice while one is applied, and makes it again if a scan left its range meanwhile', async () => {
    const db = await openFreshDatabase();
    const { accountId, ids, rollups, other } = await pgSetUp(db);
    const pool = db.pool as NonNullable<Db['pool']>;
    // 5,000 scans never handed: three slices, each read from the log; the second and the third
    // are read ahead, outside the lock, while the one before them is applied.
    await Promise.all(workload(accountId, ids, 5_000, 41).map((scan) => other.record(scan)));
    const query = pool.query.bind(pool) as (text: string, values?: unknown[]) => Promise<unknown>;
    const aheads: number[][] = [];
    let changed: { id: number; device: string } | null = null;
    // A slice's statement waits until the read ahead begun beside it is done (and the test's change
    // made): a slice made ahead is only taken once read, and these slices of two codes are quick.
    let reading: Promise<void> = Promise.resolve();
    const wrapped = new WeakSet<pg.PoolClient>();
    const holdStatement = (client: pg.PoolClient) => {
      if (wrapped.has(client)) return;
      wrapped.add(client);
      const clientQuery = client.query.bind(client) as (...args: unknown[]) => unknown;
      client.query = ((...args: unknown[]) => {
        const config = args[0];
        const named = typeof config === 'object' && config !== null && (config as { name?: string }).name === 'qrtrack_apply_rollups';
        return named ? reading.then(() => clientQuery(...args)) : clientQuery(...args);
      }) as unknown as typeof client.query;
    };
    pool.on('acquire', holdStatement);
    pool.query = (async (text: string, values?: unknown[]) => {
      if (typeof text !== 'string' || !text.includes('left join qr_items')) return query(text, values);
      let done = () => {};
      reading = new Promise((resolve) => (done = resolve));
      const result = await query(text, values);
      {
        const [from, upTo] = (values ?? []).map(Number) as [number, number];
        aheads.push([from, upTo]);
        const first = await query('select id, device from scans where id > $1 and id <= $2 order by id limit 1', [from, upTo]);
        const row = (first as { rows: { id: string; device: string }[] }).rows[0] as { id: string; device: string };
        // The first read ahead: a row changed behind its back (white box: the values made ahead
        // are used, so the change is not seen). The second: a scan taken out, as a forget does.
        if (aheads.length === 1) {
          changed = { id: Number(row.id), device: row.device };
          await query(`update scans set device = 'tablet' where id = $1`, [row.id]);
        } else if (aheads.length === 2) await query('delete from scans where id = $1', [row.id]);
      }
      done();
      return result;
    }) as unknown as typeof pool.query;
    await rollups.catchUp();
    pool.query = query as unknown as typeof pool.query;
    pool.off('acquire', holdStatement);
    expect(aheads).toHaveLength(2);
    const tablets = await sql<{ n: string }>`select count(*) as n from scan_dims_daily where dim = 'device' and value = 'tablet'`.execute(
      db.kysely,
    );
    expect(Number(tablets.rows[0]?.n)).toBe(0);
    // With the changed row as it was, the roll-ups are the log's exactly: the slice whose scan
    // was taken out was made again under the lock.
    const restore = changed as { id: number; device: string } | null;
    if (restore === null) throw new Error('no slice was read ahead');
    await sql`update scans set device = ${restore.device} where id = ${restore.id}`.execute(db.kysely);
    const expected = await expectedRollups(db);
    expect(expected.logged).toBe(4_999);
    expect(expected.position).toBe(5_000);
    expect(await storedRollups(db)).toEqual(expected.snapshot);
  });

  it('does not wait under its lock for a slice read ahead that still needs the database', async () => {
    const db = await openFreshDatabase();
    const { accountId, ids, rollups, other } = await pgSetUp(db);
    const pool = db.pool as NonNullable<Db['pool']>;
    await Promise.all(workload(accountId, ids, 5_000, 42).map((scan) => other.record(scan)));
    // Reads ahead answer only once the roll-ups have caught up: as when every pooled connection is
    // held by a forget waiting for the aggregator's lock. Waiting for them would never end.
    const query = pool.query.bind(pool) as (text: string, values?: unknown[]) => Promise<unknown>;
    let caughtUp = () => {};
    const after = new Promise<void>((resolve) => (caughtUp = resolve));
    let held = 0;
    pool.query = (async (text: string, values?: unknown[]) => {
      if (typeof text !== 'string' || !text.includes('left join qr_items')) return query(text, values);
      held++;
      await after;
      return query(text, values);
    }) as unknown as typeof pool.query;
    await rollups.catchUp();
    caughtUp();
    pool.query = query as unknown as typeof pool.query;
    expect(held).toBe(2);
    const expected = await expectedRollups(db);
    expect(expected.logged).toBe(5_000);
    expect(expected.position).toBe(5_000);
    expect(await storedRollups(db)).toEqual(expected.snapshot);
  });

  it('does not read back what it was handed (white box: a row changed in the log behind its back is not seen)', async () => {
    const db = await openFreshDatabase();
    const { accountId, ids, rollups, writer } = await pgSetUp(db);
    await Promise.all(workload(accountId, ids, 50, 34).map((scan) => writer.record({ ...scan, device: 'mobile' })));
    await sql`update scans set device = 'tablet'`.execute(db.kysely);
    await rollups.catchUp();
    const tablets = await sql<{ n: string }>`select count(*) as n from scan_dims_daily where dim = 'device' and value = 'tablet'`.execute(
      db.kysely,
    );
    expect(Number(tablets.rows[0]?.n)).toBe(0);
  });
});
