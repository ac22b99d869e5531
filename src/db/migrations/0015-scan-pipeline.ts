// The scan log's consumers: each reads the append-only `scans` table past its own position and
// moves that position in the same transaction as what it made of the scans (the roll-ups, the
// webhooks' events), so every logged scan is applied exactly once. Scans already in the log were
// rolled up by the redirect that wrote them, so the roll-ups' position starts at the last of them.
// Accounts gain how long their raw scans are kept (null: forever).
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
      await sql`insert into log_cursors (name, position) select 'rollups', coalesce(max(id), 0) from scans`.execute(db);
      await db.schema.alterTable('accounts').addColumn('scan_retention_days', int).execute();
      // Which scan was a visitor's first of the day: a consumer after the roll-ups (webhooks) reads
      // whether a scan was unique from here. Null on visitors recorded before this migration.
      await db.schema.alterTable('scan_visitors').addColumn('first_scan_id', int).execute();
    },
  };
}
