// Each account's number of live codes, kept beside the codes it counts: the per-account code
// quota (MAX_CODES_PER_ACCOUNT) is checked on every create, and counting a million codes
// there would hold the thread answering the short links for tens of milliseconds each time.
import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../codec.ts';

type AnyDb = Kysely<unknown>;

export function accountCodeCounts(dialect: Dialect): Migration {
  const int = dialect === 'postgres' ? sql`bigint` : sql`integer`;
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable('accounts').addColumn('code_count', int, (c) => c.notNull().defaultTo(0)).execute();
      await sql`update accounts set code_count = (select count(*) from qr_items where qr_items.account_id = accounts.id and qr_items.deleted_at is null)`.execute(db);
    },
  };
}
