// Each account's number of live codes, kept with the codes: a count(*) grows with the account
// (docs/performance.md, F7). The repository adds and takes off in the transaction that creates or deletes codes.
import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../codec.ts';

type AnyDb = Kysely<unknown>;

export function liveCodeCounts(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .alterTable('accounts')
        .addColumn('live_codes', dialect === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`update accounts set live_codes = (select count(*) from qr_items where qr_items.account_id = accounts.id and qr_items.deleted_at is null)`.execute(
        db,
      );
    },
  };
}
