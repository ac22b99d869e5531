// A SQLite database made by an earlier schema: the project's migrations up to (not including)
// `before`, run on a raw handle, so an upgrade test can fill it as an older server left it.
import path from 'node:path';
import { Kysely, type Migration, SqliteDialect } from 'kysely';
import { InCodeMigrations, runMigrations } from '../../src/db/migrations.ts';
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
