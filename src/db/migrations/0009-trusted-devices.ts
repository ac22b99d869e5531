// Browsers a user has signed in from: a long-lived cookie whose SHA-256 is kept here. A
// sign-in from such a browser is limited per browser, so a stranger who sends wrong passwords
// for an email cannot lock its owner out of the browsers they already use.
import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../codec.ts';

type AnyDb = Kysely<unknown>;

export function trustedDevices(dialect: Dialect): Migration {
  const time = dialect === 'postgres' ? sql`timestamptz` : sql`text`;
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('trusted_devices')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('last_used_at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('trusted_devices_user').on('trusted_devices').columns(['user_id', 'last_used_at']).execute();
    },
  };
}
