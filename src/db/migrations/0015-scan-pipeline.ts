// The scan log's consumers: each reads the append-only `scans` table past its own position and
// moves that position in the same transaction as what it made of the scans (the roll-ups, the
// webhooks' events), so every logged scan is applied exactly once. Scans already in the log were
// rolled up by the redirect that wrote them, so the roll-ups' position starts at the last of them.
// On SQLite the log's ids become AUTOINCREMENT: a plain rowid is max + 1, so forgetting the newest
// scan would give its id again to the next one, which a consumer past it would never read.
// Accounts gain how long their raw scans are kept (null: forever). An item's scans are indexed by
// time instead of id: the newest scans and the scans of a day to forget are both ranges of it.
import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../codec.ts';

type AnyDb = Kysely<unknown>;

export function scanPipeline(dialect: Dialect): Migration {
  const int = dialect === 'postgres' ? sql`bigint` : sql`integer`;
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('log_cursors')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('position', int, (c) => c.notNull())
        .execute();
      if (dialect === 'sqlite') await autoincrementScanIds(db);
      await sql`insert into log_cursors (name, position) select 'rollups', coalesce(max(id), 0) from scans`.execute(db);
      await db.schema.alterTable('accounts').addColumn('scan_retention_days', int).execute();
      // The first UTC day whose raw scans are all still in the log (null: every day's are).
      await db.schema.alterTable('accounts').addColumn('raw_scans_from', 'text').execute();
      if (dialect === 'postgres') {
        await sql`drop index scans_item_recent`.execute(db);
        await sql`create index scans_item_time on scans (item_id, is_bot, scanned_at)`.execute(db);
      }
      // Which scan was a visitor's first of the day: a consumer after the roll-ups (webhooks) reads
      // whether a scan was unique from here. Null on visitors recorded before this migration.
      await db.schema.alterTable('scan_visitors').addColumn('first_scan_id', int).execute();
    },
  };
}

async function autoincrementScanIds(db: AnyDb): Promise<void> {
  await sql`create table scans_log (id integer primary key autoincrement, item_id text not null, scanned_at text not null,
    is_bot integer not null, device text not null, os text, browser text, country text, referrer text, visitor_hash text not null,
    outcome text default 'redirect' not null, rule_id text, variant integer, destination text)`.execute(db);
  await sql`insert into scans_log select id, item_id, scanned_at, is_bot, device, os, browser, country, referrer, visitor_hash, outcome,
    rule_id, variant, destination from scans`.execute(db);
  await sql`drop table scans`.execute(db);
  await sql`alter table scans_log rename to scans`.execute(db);
  await sql`create index scans_item_time on scans (item_id, is_bot, scanned_at)`.execute(db);
}
