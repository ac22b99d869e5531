// A throw-away PostgreSQL database for one benchmark run (BENCH_DATABASE_URL, or the
// machine's local server), dropped afterwards.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const ADMIN_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

export async function freshPostgres(): Promise<{ url: string; dispose(): Promise<void> }> {
  const name = 'qrtrack_bench_' + randomBytes(4).toString('hex');
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async dispose() {
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
