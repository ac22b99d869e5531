// A database made by an earlier schema: the project's migrations up to (not including) `before`,
// so an upgrade test can fill it as an older server left it.
import path from 'node:path';
import { Kysely, type Migration, SqliteDialect } from 'kysely';
import pg from 'pg';
import { codecFor } from '../../src/db/codec.ts';
import type { Db } from '../../src/db/database.ts';
import { InCodeMigrations, runMigrations } from '../../src/db/migrations.ts';
import { OwnSchemaPostgresDialect } from '../../src/db/postgres/own-schema-dialect.ts';
import type { Database } from '../../src/db/schema.ts';
import { SQLite } from '../../src/db/sqlite/sqlite-driver.ts';
import { tempDir } from './test-app.ts';

export async function sqliteBefore(before: string): Promise<{ file: string; raw: InstanceType<typeof SQLite>; k: Kysely<unknown> }> {
  const file = path.join(tempDir(), 'old.db');
  const raw = new SQLite(file);
  const k = new Kysely<unknown>({ dialect: new SqliteDialect({ database: raw }) });
  const older = {
    async getMigrations(): Promise<Record<string, Migration>> {
      const all = await new InCodeMigrations('sqlite').getMigrations();
      return Object.fromEntries(Object.entries(all).filter(([name]) => name < before));
    },
  };
  await runMigrations(k, 'sqlite', older);
  return { file, raw, k };
}

/**
 * A PostgreSQL database (the schema `url`'s search_path names) made by the project's migrations up
 * to (not including) `before`, opened as a `Db` so the code of that time can fill it.
 */
export async function postgresBefore(url: string, before: string): Promise<Db> {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const kysely = new Kysely<Database>({ dialect: new OwnSchemaPostgresDialect({ pool }) });
  const older = {
    async getMigrations(): Promise<Record<string, Migration>> {
      const all = await new InCodeMigrations('postgres').getMigrations();
      return Object.fromEntries(Object.entries(all).filter(([name]) => name < before));
    },
  };
  await runMigrations(kysely as Kysely<unknown>, 'postgres', older);
  return { kysely, codec: codecFor('postgres'), sqlite: null, pool, close: () => kysely.destroy() };
}
