// API keys that end: an optional expiry, and the successor a rotation made. A rotated key keeps
// working until its expires_at (the end of the grace period), then answers 401 like an expired one.
import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../codec.ts';

type AnyDb = Kysely<unknown>;

export function keyLifecycle(dialect: Dialect): Migration {
  const time = dialect === 'postgres' ? sql`timestamptz` : sql`text`;
  return {
    async up(db: AnyDb) {
      // One column an ALTER: SQLite adds one at a time.
      await db.schema.alterTable('api_keys').addColumn('expires_at', time).execute();
      await db.schema.alterTable('api_keys').addColumn('replaced_by', 'text').execute();
      await db.schema.alterTable('api_keys').addColumn('replaced_at', time).execute();
    },
  };
}
