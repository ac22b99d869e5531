// The instance's public address, asked for at first run, and the custom domains accounts verify
// (docs/deployment.md, product-decisions §14). instance_settings is a small key → value table
// (the address, the addresses it had before); domains holds one row per hostname an account
// claims, and qr_items.domain_id names the domain a code's short link lives on (null: the
// instance's own address).
import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../codec.ts';

type AnyDb = Kysely<unknown>;

export function domains(dialect: Dialect): Migration {
  const time = dialect === 'postgres' ? sql`timestamptz` : sql`text`;
  const bool = dialect === 'postgres' ? sql`boolean` : sql`integer`;
  const int = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('instance_settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('domains')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('hostname', 'text', (c) => c.notNull())
        .addColumn('token', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('is_default', bool, (c) => c.notNull())
        .addColumn('fallback_url', 'text')
        .addColumn('root_redirect', 'text')
        .addColumn('last_error', 'text')
        .addColumn('misses', int, (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('verified_at', time)
        .addColumn('checked_at', time)
        .execute();
      // Several accounts may claim a hostname while it is pending; only one can hold it active.
      await db.schema.createIndex('domains_account_hostname').on('domains').columns(['account_id', 'hostname']).unique().execute();
      await sql`create unique index domains_active_hostname on domains (hostname) where status = 'active'`.execute(db);
      await db.schema.alterTable('qr_items').addColumn('domain_id', 'text').execute();
      // DELETE of a domain asks whether live codes still use it.
      await sql`create index qr_items_domain on qr_items (domain_id) where domain_id is not null`.execute(db);
    },
  };
}
