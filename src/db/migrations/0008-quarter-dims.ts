// Breakdowns per quarter hour, beside the per-UTC-day ones: a range in a time zone other than
// UTC starts (and ends) at a local midnight, inside a UTC day, and the daily rows alone counted
// that whole day: with tz=Asia/Tokyo and days=1, up to 15 hours of yesterday. The stats read the
// range's UTC days from the daily rows and take off the quarter hours of those days outside
// the range, at most two part-days: a bounded read, whatever the range.
// - scan_dims_quarter: human scans per item, quarter hour, dimension and value.
// - account_dims_quarter: the same per account.
// Existing scans of the last 92 days (the longest range, 90 local days, reaches at most a day
// before its first UTC day) are carried over from the raw scans; older rows are pruned
// (quarter-dims-retention.ts).
import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../codec.ts';
import { QUARTER_DIMS_DAYS } from '../scans/quarter-dims-retention.ts';

type AnyDb = Kysely<unknown>;

export function quarterDims(dialect: Dialect): Migration {
  const int = dialect === 'postgres' ? sql`bigint` : sql`integer`;
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('scan_dims_quarter')
        .addColumn('item_id', 'text', (c) => c.notNull())
        .addColumn('bucket', int, (c) => c.notNull())
        .addColumn('dim', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('scans', int, (c) => c.notNull())
        .addPrimaryKeyConstraint('scan_dims_quarter_pk', ['item_id', 'bucket', 'dim', 'value'])
        .$call((b) => (dialect === 'sqlite' ? b.modifyEnd(sql`without rowid`) : b))
        .execute();
      await db.schema
        .createTable('account_dims_quarter')
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('bucket', int, (c) => c.notNull())
        .addColumn('dim', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('scans', int, (c) => c.notNull())
        .addPrimaryKeyConstraint('account_dims_quarter_pk', ['account_id', 'bucket', 'dim', 'value'])
        .$call((b) => (dialect === 'sqlite' ? b.modifyEnd(sql`without rowid`) : b))
        .execute();
      // For the daily prune of rows past QUARTER_DIMS_DAYS (quarter-dims-retention.ts).
      await db.schema.createIndex('scan_dims_quarter_bucket').on('scan_dims_quarter').column('bucket').execute();
      await db.schema.createIndex('account_dims_quarter_bucket').on('account_dims_quarter').column('bucket').execute();
      await backfillQuarterDims(db, dialect, Date.now());
    },
  };
}

/** Fills both tables from the raw human scans since `now` − QUARTER_DIMS_DAYS; exported for its test. */
export async function backfillQuarterDims(db: AnyDb, dialect: Dialect, now: number): Promise<void> {
  const since = new Date(now - QUARTER_DIMS_DAYS * 86_400_000).toISOString();
  // The bucket is whole quarter hours since the epoch, as the writers compute it from the
  // scan's milliseconds (SQLite's unixepoch() drops the fraction; floor does for PostgreSQL).
  const bucket = dialect === 'postgres' ? sql`floor(extract(epoch from scanned_at) / 900)::bigint` : sql`unixepoch(scanned_at) / 900`;
  const sinceValue = dialect === 'postgres' ? sql`${since}::timestamptz` : sql`${since}`;
  const human = dialect === 'postgres' ? sql`not is_bot` : sql`is_bot = 0`;
  // scanned_at has no index, but ids grow with time: the recent scans are read from the first
  // id a day before `since` on (found by a binary search over ids), not the whole table.
  const firstId = await firstIdFrom(db, dialect, new Date(now - (QUARTER_DIMS_DAYS + 1) * 86_400_000).toISOString());
  // One pass over those scans for all five dimensions, with the same values as the writers'
  // dimensionValue(): unknown values are kept, so the rows add up to the scans.
  await sql`
    with recent as materialized (
      select item_id, ${bucket} as bucket, device, os, browser, country, referrer
      from scans where id >= ${firstId} and ${human} and scanned_at >= ${sinceValue}
    )
    insert into scan_dims_quarter (item_id, bucket, dim, value, scans)
    select item_id, bucket, 'device', device, count(*) from recent group by 1, 2, 4
    union all select item_id, bucket, 'os', coalesce(os, 'unknown'), count(*) from recent group by 1, 2, 4
    union all select item_id, bucket, 'browser', coalesce(browser, 'unknown'), count(*) from recent group by 1, 2, 4
    union all select item_id, bucket, 'country', coalesce(country, 'unknown'), count(*) from recent group by 1, 2, 4
    union all select item_id, bucket, 'referrer', coalesce(referrer, 'direct'), count(*) from recent group by 1, 2, 4`.execute(db);
  await sql`
    insert into account_dims_quarter (account_id, bucket, dim, value, scans)
    select q.account_id, d.bucket, d.dim, d.value, sum(d.scans)
    from scan_dims_quarter d join qr_items q on q.id = d.item_id
    group by q.account_id, d.bucket, d.dim, d.value`.execute(db);
}

/** The smallest scan id whose scan is at or after `from`, assuming ids grow with time (0 when none). */
async function firstIdFrom(db: AnyDb, dialect: Dialect, from: string): Promise<number> {
  const fromValue = dialect === 'postgres' ? sql`${from}::timestamptz` : sql`${from}`;
  const range = (await sql<{ lo: number | null; hi: number | null }>`select min(id) as lo, max(id) as hi from scans`.execute(db)).rows[0];
  let lo = Number(range?.lo ?? 0);
  let hi = Number(range?.hi ?? 0) + 1;
  // Invariant: scans before `lo` are older than `from`; the answer is in [lo, hi].
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    const next = (
      await sql<{ id: number; recent: boolean | number }>`
      select id, case when scanned_at >= ${fromValue} then 1 else 0 end as recent from scans where id >= ${mid} order by id limit 1`.execute(
        db,
      )
    ).rows[0];
    if (next === undefined || Number(next.recent) === 1) hi = mid;
    else lo = Number(next.id) + 1;
  }
  return lo;
}
