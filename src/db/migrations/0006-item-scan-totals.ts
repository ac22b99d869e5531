// Top codes by an index: each live code's human scans in a narrow table of its own, kept by
// the scan writers beside the code's counter and dropped when the code is deleted. The account overview walks an account's codes
// there from the most scanned down and stops as soon as no code further down can enter the
// top list (docs/decisions/account-stats.md), instead of reading every code's row.
// qr_items cannot carry that index itself: its counters change on every scan batch, and an
// index on them would turn each of those updates from in-place (HOT) into a new entry in
// all nine of its indexes.
// The index of live codes per account (0004) only served the old top list and the count of
// live codes, which the list's own index (account, created_at, id) serves as well: one index
// fewer for every insert of a code.
import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../codec.ts';

type AnyDb = Kysely<unknown>;

export function itemScanTotals(dialect: Dialect): Migration {
  const int = dialect === 'postgres' ? sql`bigint` : sql`integer`;
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('item_scan_totals')
        .addColumn('item_id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('scans', int, (c) => c.notNull())
        .execute();
      await sql`insert into item_scan_totals (item_id, account_id, scans)
        select id, account_id, scan_count from qr_items where scan_count > 0 and deleted_at is null`.execute(db);
      await sql`create index item_scan_totals_top on item_scan_totals (account_id, scans desc, item_id)`.execute(db);
      await db.schema.dropIndex('qr_items_account_live').execute();
    },
  };
}
