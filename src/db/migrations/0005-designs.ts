// Saved designs ("templates"): named designs of an account, to start new codes from.
// The design is stored whole (every option), as JSON, like qr_items.design_json.
import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../codec.ts';

type AnyDb = Kysely<unknown>;

export function designs(dialect: Dialect): Migration {
  const time = dialect === 'postgres' ? sql`timestamptz` : sql`text`;
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('designs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('design_json', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .execute();
      // The list: an account's designs, newest first.
      await db.schema.createIndex('designs_account_created').on('designs').columns(['account_id', 'created_at', 'id']).execute();
    },
  };
}
