// Retention (an account's scanRetentionDays): the raw scans and the per-day breakdowns of days
// older than that are deleted; the quarter-hour counts behind the daily series, the codes'
// counters and running totals, and the account's totals stay. Run hourly; an account's days go
// once, when its cutoff moves past them. Deleted in small slices with a turn of the event loop
// between them (SQLite: each is a hold of the thread that answers short links). Raw scans go
// only once every consumer of the log has applied them; on PostgreSQL each slice takes the
// aggregator's lock, so a forget (forget-scans.ts) never sees a day half deleted.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql } from 'kysely';
import { bucketOf, utcDay } from '../../domain/stats/scan-buckets.ts';
import type { Db } from '../database.ts';
import { startPurge } from './periodic-purge.ts';
import { AGGREGATOR_LOCK } from './rollup-aggregator.ts';

const DAY_MS = 86_400_000;
/** Rows per delete statement: a few milliseconds of SQLite work. */
const SLICE = 1_000;
/** Codes per page of an account's codes. */
const PAGE = 200;

export interface RetentionResult {
  accounts: number;
  scans: number;
  breakdownRows: number;
}

/** The first UTC day an account keeps: days before it are past its retention. */
export function retentionCutoff(days: number, now: number): string {
  return utcDay(now - days * DAY_MS);
}

export async function applyRetention(db: Db, now = Date.now()): Promise<RetentionResult> {
  const result: RetentionResult = { accounts: 0, scans: 0, breakdownRows: 0 };
  const accounts = await db.kysely
    .selectFrom('accounts')
    .select(['id', 'scan_retention_days', 'raw_scans_from'])
    .where('scan_retention_days', 'is not', null)
    .execute();
  for (const account of accounts) {
    const cutoff = retentionCutoff(Number(account.scan_retention_days), now);
    if (account.raw_scans_from !== null && account.raw_scans_from >= cutoff) continue;
    result.accounts++;
    // Marked first: from now on a forget treats these days as having no raw scans.
    await db.kysely.updateTable('accounts').set({ raw_scans_from: cutoff }).where('id', '=', account.id).execute();
    const cursors = await db.kysely
      .selectFrom('log_cursors')
      .select((eb) => eb.fn.min('position').as('p'))
      .executeTakeFirst();
    const applied = Number(cursors?.p ?? 0);
    const cutoffTime = `${cutoff}T00:00:00.000Z`;
    const cutoffBucket = bucketOf(Date.parse(cutoffTime));
    let after = '';
    for (;;) {
      const items = await db.kysely
        .selectFrom('qr_items')
        .select('id')
        .where('account_id', '=', account.id)
        .where('id', '>', after)
        .orderBy('id')
        .limit(PAGE)
        .execute();
      if (items.length === 0) break;
      after = (items[items.length - 1] as { id: string }).id;
      for (const { id } of items) {
        result.scans += await deleteRawScans(db, id, cutoffTime, applied);
        const dims = await db.kysely.deleteFrom('scan_dims_daily').where('item_id', '=', id).where('day', '<', cutoff).executeTakeFirst();
        const quarter = await db.kysely
          .deleteFrom('scan_dims_quarter')
          .where('item_id', '=', id)
          .where('bucket', '<', cutoffBucket)
          .executeTakeFirst();
        result.breakdownRows += Number(dims.numDeletedRows) + Number(quarter.numDeletedRows);
      }
      await nextTurn();
    }
    const dims = await db.kysely
      .deleteFrom('account_dims_daily')
      .where('account_id', '=', account.id)
      .where('day', '<', cutoff)
      .executeTakeFirst();
    const quarter = await db.kysely
      .deleteFrom('account_dims_quarter')
      .where('account_id', '=', account.id)
      .where('bucket', '<', cutoffBucket)
      .executeTakeFirst();
    result.breakdownRows += Number(dims.numDeletedRows) + Number(quarter.numDeletedRows);
  }
  return result;
}

async function deleteRawScans(db: Db, itemId: string, before: string, applied: number): Promise<number> {
  let deleted = 0;
  const pg = db.codec.dialect === 'postgres';
  const bools = pg ? sql`(false, true)` : sql`(0, 1)`;
  // PostgreSQL: with the time, each row is looked up in its month's partition only, not in every month's.
  const slice = sql`delete from scans where ${pg ? sql`(id, scanned_at)` : sql`id`} in (
    select ${pg ? sql`id, scanned_at` : sql`id`} from scans where item_id = ${itemId} and is_bot in ${bools} and scanned_at < ${before} and id <= ${applied} limit ${SLICE})`;
  for (;;) {
    const res = pg
      ? await db.kysely.transaction().execute(async (trx) => {
          await sql`select pg_advisory_xact_lock(${AGGREGATOR_LOCK}, hashtext(current_schema()))`.execute(trx);
          return slice.execute(trx);
        })
      : await slice.execute(db.kysely);
    const n = Number(res.numAffectedRows ?? 0);
    deleted += n;
    if (n < SLICE) return deleted;
    await nextTurn();
  }
}

/** Applies retention now and then every `intervalMs` (an hour). */
export function startScanRetention(db: Db, onError: (err: unknown) => void, intervalMs = 60 * 60_000): () => Promise<void> {
  return startPurge(() => applyRetention(db), onError, intervalMs);
}
