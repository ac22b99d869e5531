// Account roll-ups: what the account overview reads, kept beside the per-item ones and
// written in the same transaction as each scan batch (see docs/decisions/account-stats.md).
// - account_buckets: scans per account per quarter hour (local days in any zone, as per item).
// - account_dims_daily: human scans per account, UTC day, dimension and value (breakdowns).
// - item_running_totals: an item's human scans and unique scans up to the end of each UTC
//   day it was scanned on, so "scans since day D" is one index probe per item:
//   scan_count minus the last running total before D. That keeps "top codes over 90 days"
//   at one probe per code however many scans or days there are.
// Existing data is carried over from the per-item roll-ups, which hold the same sums.
import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../codec.ts';

type AnyDb = Kysely<unknown>;

export function accountRollups(dialect: Dialect): Migration {
  const int = dialect === 'postgres' ? sql`bigint` : sql`integer`;
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('account_buckets')
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('bucket', int, (c) => c.notNull())
        .addColumn('scans', int, (c) => c.notNull())
        .addColumn('unique_scans', int, (c) => c.notNull())
        .addColumn('bot_scans', int, (c) => c.notNull())
        .addPrimaryKeyConstraint('account_buckets_pk', ['account_id', 'bucket'])
        .execute();
      await db.schema
        .createTable('account_dims_daily')
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('dim', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('scans', int, (c) => c.notNull())
        .addPrimaryKeyConstraint('account_dims_daily_pk', ['account_id', 'day', 'dim', 'value'])
        .execute();
      await db.schema
        .createTable('item_running_totals')
        .addColumn('item_id', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('scans', int, (c) => c.notNull())
        .addColumn('unique_scans', int, (c) => c.notNull())
        .addPrimaryKeyConstraint('item_running_totals_pk', ['item_id', 'day'])
        // SQLite: the table is its primary key, so a probe is one b-tree seek.
        .$call((b) => (dialect === 'sqlite' ? b.modifyEnd(sql`without rowid`) : b))
        .execute();
      // The account's live codes without reading their rows (which may be wide: a custom logo
      // is stored in the design): counting them and probing their running totals.
      await db.schema
        .createIndex('qr_items_account_live')
        .on('qr_items')
        .columns(['account_id', 'id'])
        .where(sql.ref('deleted_at'), 'is', null)
        .execute();
      await backfillAccountRollups(db, dialect);
    },
  };
}

/** Fills the three tables from the per-item roll-ups (which hold the same sums); exported for its test. */
export async function backfillAccountRollups(db: AnyDb, dialect: Dialect): Promise<void> {
  await sql`
    insert into account_buckets (account_id, bucket, scans, unique_scans, bot_scans)
    select q.account_id, b.bucket, sum(b.scans), sum(b.unique_scans), sum(b.bot_scans)
    from scan_buckets b join qr_items q on q.id = b.item_id
    group by q.account_id, b.bucket`.execute(db);
  await sql`
    insert into account_dims_daily (account_id, day, dim, value, scans)
    select q.account_id, d.day, d.dim, d.value, sum(d.scans)
    from scan_dims_daily d join qr_items q on q.id = d.item_id
    group by q.account_id, d.day, d.dim, d.value`.execute(db);
  await fillRunningTotals(db, dialect);
}

/** Fills item_running_totals from the per-item quarter-hour roll-ups (scan_buckets). */
export async function fillRunningTotals(db: AnyDb, dialect: Dialect): Promise<void> {
  // A bucket is a quarter hour since the epoch: 96 to a UTC day.
  const dayOfBucket =
    dialect === 'postgres'
      ? sql`to_char(to_timestamp(bucket * 900) at time zone 'UTC', 'YYYY-MM-DD')`
      : sql`date(bucket * 900, 'unixepoch')`;
  await sql`
    insert into item_running_totals (item_id, day, scans, unique_scans)
    select item_id, day,
      sum(sum(scans)) over (partition by item_id order by day),
      sum(sum(unique_scans)) over (partition by item_id order by day)
    from (select item_id, ${dayOfBucket} as day, scans, unique_scans from scan_buckets where scans > 0) b
    group by item_id, day`.execute(db);
}
