// PostgreSQL's scan log is partitioned by UTC month (migration 0020). At start and hourly:
// - the current month and the next two get their partitions, so no scan of normal operation lands
//   in `scans_default`; scans that did (a seeded past, a clock far off) move to their month's new
//   partition in the same transaction that attaches it;
// - a month goes whole (DROP) once every account's retention has passed it (an account keeping
//   scans forever keeps every month) and every consumer of the log has applied its scans. Rows
//   of days an account's own retention has passed are still deleted row by row (scan-retention.ts).
// A partition is made apart and then attached: ATTACH takes SHARE UPDATE EXCLUSIVE on `scans`,
// which the redirect's inserts pass, where CREATE TABLE … PARTITION OF takes ACCESS EXCLUSIVE and
// would queue them behind any long reader. A DROP needs ACCESS EXCLUSIVE: it waits at most
// DROP_LOCK_TIMEOUT (inserts queue behind it meanwhile) and is tried again at the next run.
import { type Transaction, sql } from 'kysely';
import { FEED_LOCK_KEY } from '../webhooks/scan-events.ts';
import type { Db } from '../database.ts';
import type { Database } from '../schema.ts';
import { startPurge } from './periodic-purge.ts';
import { AGGREGATOR_LOCK } from './rollup-aggregator.ts';
import { retentionCutoff } from './scan-retention.ts';

/** Names the upkeep among the database's advisory locks ('qrpt'), per schema like the others. */
export const PARTITION_LOCK = 0x71727074;
/** Months made ahead of the current one. */
export const MONTHS_AHEAD = 2;
/** How long attaching a month waits for `scans_default` (readers of the log queue behind it meanwhile). */
const ATTACH_LOCK_TIMEOUT = '500ms';
/** How long a drop waits for `scans` (the redirect's inserts queue behind it meanwhile). */
const DROP_LOCK_TIMEOUT = '50ms';
/** PostgreSQL's lock_not_available: a lock timeout. */
const LOCK_NOT_AVAILABLE = '55P03';

/** A UTC month as months since year 0. */
export function monthOf(ms: number): number {
  const d = new Date(ms);
  return d.getUTCFullYear() * 12 + d.getUTCMonth();
}

export interface MonthPartition {
  month: number;
  name: string;
  /** Its range [from, to), as 'YYYY-MM-DD' UTC days. */
  from: string;
  to: string;
}

export function monthPartition(month: number): MonthPartition {
  const day = (m: number) => `${String(Math.floor(m / 12)).padStart(4, '0')}-${String((m % 12) + 1).padStart(2, '0')}-01`;
  return { month, name: `scans_${day(month).slice(0, 7).replace('-', '_')}`, from: day(month), to: day(month + 1) };
}

function parsePartitionName(name: string): number | null {
  const m = /^scans_(\d{4})_(\d{2})$/.exec(name);
  return m ? Number(m[1]) * 12 + Number(m[2]) - 1 : null;
}

export interface PartitionUpkeep {
  /** Partitions made. */
  created: string[];
  /** Scans moved out of `scans_default` into them. */
  moved: number;
  dropped: string[];
  /** Months that could go but whose drop did not get its lock in time (tried again next run). */
  deferred: string[];
}

type Trx = Transaction<Database>;

/** Takes the upkeep's lock for this transaction; false while another process holds it. */
async function tryLock(trx: Trx): Promise<boolean> {
  const got = await sql<{ ok: boolean }>`select pg_try_advisory_xact_lock(${PARTITION_LOCK}, hashtext(current_schema())) as ok`.execute(
    trx,
  );
  return got.rows[0]?.ok === true;
}

/** The monthly partitions of `scans` in the current schema. */
async function monthPartitions(trx: Trx): Promise<MonthPartition[]> {
  const rows = await sql<{ name: string }>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'scans'::regclass`.execute(trx);
  const months = rows.rows.map((r) => parsePartitionName(r.name)).filter((m): m is number => m !== null);
  return months.sort((a, b) => a - b).map(monthPartition);
}

/** Creates the months ahead and moves what waits in DEFAULT, then drops what may go. No-op on SQLite. */
export async function maintainScanPartitions(db: Db, now = Date.now()): Promise<PartitionUpkeep> {
  const result = await makeScanMonths(db, now);
  if (db.codec.dialect === 'postgres') await dropPastMonths(db, now, result);
  return result;
}

/** Only creates the months ahead and moves what waits in DEFAULT (tools that seed a past). No-op on SQLite. */
export async function makeScanMonths(db: Db, now = Date.now()): Promise<PartitionUpkeep> {
  const result: PartitionUpkeep = { created: [], moved: 0, dropped: [], deferred: [] };
  if (db.codec.dialect === 'postgres') await createMonths(db, now, result);
  return result;
}

async function createMonths(db: Db, now: number, result: PartitionUpkeep): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    if (!(await tryLock(trx))) return;
    // A log not partitioned yet (a database before migration 0020, as upgrade tests seed it).
    const partitioned = await sql<{ ok: boolean }>`select to_regclass('scans_default') is not null as ok`.execute(trx);
    if (partitioned.rows[0]?.ok !== true) return;
    const current = monthOf(now);
    const wanted = new Set<number>();
    for (let m = current; m <= current + MONTHS_AHEAD; m++) wanted.add(m);
    const stray = await sql<{ n: boolean }>`select exists (select 1 from scans_default) as n`.execute(trx);
    if (stray.rows[0]?.n === true) {
      // A consumer's read planned before the attach would not see the new partition, nor the moved
      // rows in DEFAULT any longer: hold the roll-ups' and the webhooks' feeds while they move.
      await sql`select pg_advisory_xact_lock(${AGGREGATOR_LOCK}, hashtext(current_schema()))`.execute(trx);
      await sql`select pg_advisory_xact_lock(${FEED_LOCK_KEY}, hashtext(current_schema()))`.execute(trx);
      const months = await sql<{ m: string }>`
        select distinct to_char(scanned_at at time zone 'UTC', 'YYYY-MM') as m from scans_default`.execute(trx);
      for (const r of months.rows) {
        const m = parsePartitionName(`scans_${r.m.replace('-', '_')}`);
        if (m !== null) wanted.add(m);
      }
    }
    const existing = new Set((await monthPartitions(trx)).map((p) => p.month));
    const missing = [...wanted].filter((m) => !existing.has(m)).sort((a, b) => a - b);
    if (missing.length === 0) return;
    await sql.raw(`set local lock_timeout = '${ATTACH_LOCK_TIMEOUT}'`).execute(trx);
    for (const m of missing) result.moved += await attachMonth(trx, monthPartition(m));
    result.created.push(...missing.map((m) => monthPartition(m).name));
  });
}

/** Makes the month's table, moves its scans out of DEFAULT into it, and attaches it. */
async function attachMonth(trx: Trx, p: MonthPartition): Promise<number> {
  const table = sql.id(p.name);
  const from = sql.lit(`${p.from} 00:00:00+00`);
  const to = sql.lit(`${p.to} 00:00:00+00`);
  await sql`create table if not exists ${table} (like scans including defaults)`.execute(trx);
  const moved = await sql`with moved as (delete from scans_default where scanned_at >= ${from} and scanned_at < ${to} returning *)
    insert into ${table} select * from moved`.execute(trx);
  await sql`alter table scans attach partition ${table} for values from (${from}) to (${to})`.execute(trx);
  return Number(moved.numAffectedRows ?? 0);
}

/**
 * The first UTC day no month may reach into and go: the longest retention's cutoff, and no later
 * than any account's mark of where its raw scans begin (a forget treats days before the mark as
 * having no raw scans, so none may go before retention has marked them). Null: nothing may go
 * (an account keeps scans forever, or retention has not marked it yet).
 */
async function dropHorizon(trx: Trx, now: number): Promise<string | null> {
  const row = await trx
    .selectFrom('accounts')
    .select((eb) => [
      eb.fn.countAll<number>().as('accounts'),
      sql<number>`count(*) filter (where scan_retention_days is null or raw_scans_from is null)`.as('keeping'),
      eb.fn.max('scan_retention_days').as('longest'),
      eb.fn.min('raw_scans_from').as('marked'),
    ])
    .executeTakeFirstOrThrow();
  if (Number(row.accounts) === 0 || Number(row.keeping) > 0 || row.longest === null || row.marked === null) return null;
  const cutoff = retentionCutoff(Number(row.longest), now);
  // Days as 'YYYY-MM-DD' strings: the earlier sorts first.
  return [cutoff, row.marked].sort()[0] ?? null;
}

async function dropPastMonths(db: Db, now: number, result: PartitionUpkeep): Promise<void> {
  const candidates = await db.kysely.transaction().execute(async (trx) => {
    const horizon = await dropHorizon(trx, now);
    return horizon === null ? [] : (await monthPartitions(trx)).filter((p) => p.to <= horizon);
  });
  for (const p of candidates) {
    try {
      const outcome = await db.kysely.transaction().execute(async (trx) => {
        if (!(await tryLock(trx))) return 'busy';
        await sql.raw(`set local lock_timeout = '${DROP_LOCK_TIMEOUT}'`).execute(trx);
        const horizon = await dropHorizon(trx, now);
        if (horizon === null || p.to > horizon) return 'kept';
        // Held until the drop: a scan of this month written now (a seeded past) must not slip in unread.
        await sql`lock table ${sql.id(p.name)} in share mode`.execute(trx);
        const last = await sql<{ id: number | null }>`select max(id) as id from ${sql.id(p.name)}`.execute(trx);
        const cursors = await trx
          .selectFrom('log_cursors')
          .select((eb) => eb.fn.min('position').as('p'))
          .executeTakeFirst();
        const lastId = last.rows[0]?.id ?? null;
        if (lastId !== null && Number(lastId) > Number(cursors?.p ?? 0)) return 'kept';
        await sql`drop table ${sql.id(p.name)}`.execute(trx);
        return 'dropped';
      });
      if (outcome === 'busy') return;
      if (outcome === 'dropped') result.dropped.push(p.name);
    } catch (err) {
      if ((err as { code?: unknown }).code !== LOCK_NOT_AVAILABLE) throw err;
      result.deferred.push(p.name);
    }
  }
}

/** Runs the upkeep now and then every `intervalMs` (an hour); nothing on SQLite. */
export function startScanPartitions(db: Db, onError: (err: unknown) => void, intervalMs = 60 * 60_000): () => Promise<void> {
  if (db.codec.dialect !== 'postgres') return async () => {};
  return startPurge(() => maintainScanPartitions(db), onError, intervalMs);
}
