// An upgrade cut off midway must leave the database as it was: on SQLite the migrations ran
// outside any transaction, and a stop during 0008's backfill left its tables behind, so every
// later start failed with "table already exists".
import { type Kysely, type Migration, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { InCodeMigrations, runMigrations } from '../../src/db/migrations.ts';
import type { Dialect } from '../../src/db/codec.ts';
import { openFreshDatabase } from '../support/fresh-database.ts';

/** Ours, then two more: the second stops midway when told to. */
const provider = (dialect: Dialect, failAfterTable: boolean) => ({
  async getMigrations(): Promise<Record<string, Migration>> {
    return {
      ...(await new InCodeMigrations(dialect).getMigrations()),
      '9001_first': {
        up: async (k: Kysely<unknown>) => void (await k.schema.createTable('upgrade_probe_a').addColumn('id', 'integer').execute()),
      },
      '9002_second': {
        up: async (k: Kysely<unknown>) => {
          await k.schema.createTable('upgrade_probe_b').addColumn('id', 'integer').execute();
          // Stands for a process stopped in the middle of a long backfill.
          if (failAfterTable) throw new Error('stopped midway');
        },
      },
    };
  },
});

async function tables(k: Kysely<unknown>, dialect: string): Promise<string[]> {
  const rows =
    dialect === 'postgres'
      ? (
          await sql<{
            name: string;
          }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_name like 'upgrade_probe_%'`.execute(
            k,
          )
        ).rows
      : (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name like 'upgrade_probe_%'`.execute(k)).rows;
  return rows.map((r) => r.name).sort();
}

describe('migrations', () => {
  it('leave nothing behind when an upgrade fails midway, and the next start completes it', async () => {
    const db = await openFreshDatabase();
    const k = db.kysely as unknown as Kysely<unknown>;
    const dialect = db.codec.dialect;
    await expect(runMigrations(k, dialect, provider(dialect, true))).rejects.toThrow(/database migration failed: stopped midway/);
    expect(await tables(k, dialect)).toEqual([]);
    const said: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => said.push(String(chunk)) > 0) as typeof process.stderr.write;
    try {
      await runMigrations(k, dialect, provider(dialect, false));
    } finally {
      process.stderr.write = write;
    }
    expect(await tables(k, dialect)).toEqual(['upgrade_probe_a', 'upgrade_probe_b']);
    // An upgrade says what it runs before it starts (a long one kept the server silent).
    expect(said).toEqual([
      'qrtrack: upgrading the database: 9001_first, 9002_second (one transaction: stopping midway leaves it as it was)\n',
    ]);
  });
});
