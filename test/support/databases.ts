// Test databases: SQLite files always; PostgreSQL when TEST_DATABASE_URL is set,
// each test app in a schema of its own so tests never see each other's data.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || null;
/** Set by the "postgres" Vitest project. */
export const ON_POSTGRES = process.env.QRTRACK_TEST_DB === 'postgres' && TEST_DATABASE_URL !== null;

export async function freshDatabaseUrl(): Promise<{ url: string; dispose(): Promise<void> }> {
  if (!ON_POSTGRES || TEST_DATABASE_URL === null) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qrtrack-db-'));
    return { url: `sqlite:${path.join(dir, 'test.db')}`, dispose: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const schema = 't_' + randomBytes(6).toString('hex');
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    async dispose() {
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    },
  };
}
