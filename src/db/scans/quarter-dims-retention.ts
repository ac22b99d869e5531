// The quarter-hour breakdowns are read only at the ends of a stats range, and no range reaches
// further back than QUARTER_DIMS_DAYS: older rows are deleted. A busy code with many values can
// hold up to 96 of them per daily row, so without this they would grow with every quarter hour.
// Deleted a slice at a time: on SQLite a delete holds the event loop that answers short links.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql } from 'kysely';
import { bucketOf } from '../../domain/stats/scan-buckets.ts';
import type { Db } from '../database.ts';
import { startPurge } from './periodic-purge.ts';

/** The longest range (90 local days) starts at most a day before its first UTC day; one day spare. */
export const QUARTER_DIMS_DAYS = 92;

/** Rows per delete: about 10 ms of SQLite work. */
const SLICE = 2_000;

/** Deletes the quarter-hour breakdown rows older than QUARTER_DIMS_DAYS; answers how many went. */
export async function pruneQuarterDims(db: Db, now = Date.now(), slice = SLICE): Promise<number> {
  const before = bucketOf(now - QUARTER_DIMS_DAYS * 86_400_000);
  let deleted = 0;
  for (const [table, owner] of [
    ['scan_dims_quarter', 'item_id'],
    ['account_dims_quarter', 'account_id'],
  ] as const) {
    for (;;) {
      const res = await sql`
        delete from ${sql.table(table)} where (${sql.ref(owner)}, bucket, dim, value) in (
          select ${sql.ref(owner)}, bucket, dim, value from ${sql.table(table)} where bucket < ${sql.lit(before)} limit ${sql.lit(slice)})`.execute(
        db.kysely,
      );
      const n = Number(res.numAffectedRows ?? 0);
      deleted += n;
      if (n < slice) break;
      await nextTurn();
    }
  }
  return deleted;
}

/** Prunes now and then every `intervalMs` (an hour: a day's rows go in small slices). */
export function startQuarterDimsPrune(db: Db, onError: (err: unknown) => void, intervalMs = 60 * 60_000): () => Promise<void> {
  return startPurge(() => pruneQuarterDims(db), onError, intervalMs);
}
