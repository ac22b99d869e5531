// The PostgreSQL introspector the Migrator asks at every start reads the connection's own schema
// only. Kysely's own read every schema's tables and looked each column's sequence up by name: with
// schemas made and dropped beside it (tests side by side, or any other tenant of the database) it
// failed one read in ten here with `schema "…" does not exist`, and a migration with it.
import { Kysely } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { OwnSchemaPostgresDialect } from '../../src/db/postgres/own-schema-dialect.ts';
import { ON_POSTGRES, TEST_DATABASE_URL } from '../support/databases.ts';
import { freshDatabase } from '../support/fresh-database.ts';

describe.runIf(ON_POSTGRES)('the own-schema introspector (PostgreSQL)', () => {
  it("lists its schema's tables and columns, none of another schema's", async () => {
    const fresh = await freshDatabase();
    const db = await fresh.open();
    const other = new pg.Client({ connectionString: TEST_DATABASE_URL ?? undefined });
    await other.connect();
    const schema = `other_${process.pid}`;
    try {
      await other.query(`create schema ${schema}; create table ${schema}.qr_items (id serial primary key, elsewhere text)`);
      const tables = await db.kysely.introspection.getTables({ withInternalKyselyTables: true });
      const items = tables.filter((t) => t.name === 'qr_items');
      expect(items).toHaveLength(1);
      expect(items[0]?.columns.map((c) => c.name)).not.toContain('elsewhere');
      expect(new Set(tables.map((t) => t.schema)).size).toBe(1);
      expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['kysely_migration', 'scans', 'webhook_messages']));
      // Internal tables only when asked for.
      expect((await db.kysely.introspection.getTables()).some((t) => t.name.startsWith('kysely_'))).toBe(false);
      const seq = tables.find((t) => t.name === 'scans')?.columns.find((c) => c.name === 'id');
      expect(seq).toMatchObject({ isAutoIncrementing: true, isNullable: false, hasDefaultValue: true });
    } finally {
      await other.query(`drop schema if exists ${schema} cascade`);
      await other.end();
    }
  });

  it('reads while other schemas are made and dropped beside it, without an error', async () => {
    const churn = new pg.Client({ connectionString: TEST_DATABASE_URL ?? undefined });
    await churn.connect();
    const pool = new pg.Pool({ connectionString: (await freshDatabase()).url, max: 1 });
    const db = new Kysely<unknown>({ dialect: new OwnSchemaPostgresDialect({ pool }) });
    let stop = false;
    let dropped = 0;
    const prefix = `churn_${process.pid}_`;
    const churning = (async () => {
      while (!stop) {
        const s = `${prefix}${dropped % 4}`;
        await churn.query(`create schema if not exists ${s}; create table if not exists ${s}.t (id serial primary key, a text, b int)`);
        await churn.query(`drop schema ${s} cascade`);
        dropped++;
      }
    })();
    try {
      // Kysely's introspector failed 30 of these 300 reads here.
      for (let i = 0; i < 300; i++) await db.introspection.getTables({ withInternalKyselyTables: true });
    } finally {
      stop = true;
      await churning;
      await churn.end();
      await db.destroy();
    }
    expect(dropped).toBeGreaterThan(10);
  });
});
