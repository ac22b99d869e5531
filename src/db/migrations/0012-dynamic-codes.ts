// Codes that change behaviour over time (docs/dynamic-codes.md): lifecycle columns the list
// filters by, one JSON column for the routing settings the short link compiles once, the
// password's argon2id hash, and each scan's outcome and attribution. cap_admissions holds the
// visitors a `unique` scan cap admitted (per UTC day, as unique scans are counted).
import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../codec.ts';

type AnyDb = Kysely<unknown>;

export function dynamicCodes(dialect: Dialect): Migration {
  const pg = dialect === 'postgres';
  const time = pg ? sql`timestamptz` : sql`text`;
  const int = pg ? 'bigint' : 'integer';
  return {
    async up(db: AnyDb) {
      const items = () => db.schema.alterTable('qr_items');
      // One column an ALTER: SQLite adds one at a time.
      await items().addColumn('activates_at', time).execute();
      await items().addColumn('expires_at', time).execute();
      await items().addColumn('max_scans', int).execute();
      await items()
        .addColumn('cap_basis', 'text', (c) => c.notNull().defaultTo('human'))
        .execute();
      await items()
        .addColumn('cap_count', int, (c) => c.notNull().defaultTo(0))
        .execute();
      await items().addColumn('routing_json', 'text').execute();
      await items().addColumn('password_hash', 'text').execute();
      // The status filter reads only codes with a lifecycle setting, newest first, like the list.
      await sql`create index qr_items_lifecycle on qr_items (account_id, created_at, id)
        where activates_at is not null or expires_at is not null or max_scans is not null`.execute(db);

      const scans = () => db.schema.alterTable('scans');
      await scans()
        .addColumn('outcome', 'text', (c) => c.notNull().defaultTo('redirect'))
        .execute();
      await scans().addColumn('rule_id', 'text').execute();
      await scans().addColumn('variant', 'integer').execute();
      await scans().addColumn('destination', 'text').execute();
      // Scans recorded before outcomes existed: a landing page's kinds answered a page, not a redirect.
      await sql`update scans set outcome = 'landing' where item_id in (
        select id from qr_items where content_type not in ('url', 'whatsapp', 'email'))`.execute(db);

      await db.schema
        .createTable('cap_admissions')
        .addColumn('item_id', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('visitor_hash', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('cap_admissions_pk', ['item_id', 'day', 'visitor_hash'])
        .execute();
    },
  };
}
