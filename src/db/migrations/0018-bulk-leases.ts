// One import and one export per account at a time across every process on the database (server
// processes and the CLI): a lease row per account and kind, renewed while the job runs and
// taken over once it has expired (a process killed midway holds it no longer than that).
import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../codec.ts';

type AnyDb = Kysely<unknown>;

export function bulkLeases(dialect: Dialect): Migration {
  const time = dialect === 'postgres' ? sql`timestamptz` : sql`text`;
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('bulk_leases')
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('holder', 'text', (c) => c.notNull())
        .addColumn('what', 'text', (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('bulk_leases_pk', ['account_id', 'kind'])
        .execute();
    },
  };
}
