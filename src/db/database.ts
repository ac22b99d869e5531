// The database factory: one place that knows how to open SQLite or PostgreSQL.
// Everything above the data layer gets a `Db` and never sees the dialect.
import fs from 'node:fs';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteAdapter, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.ts';
import { type Codec, codecFor } from './codec.ts';
import { migrateToLatest } from './migrations.ts';
import { OwnSchemaPostgresDialect } from './postgres/own-schema-dialect.ts';
import { SearchIndexMerger } from './sqlite/search-index-merger.ts';
import { SqliteCheckpointer } from './sqlite/sqlite-checkpointer.ts';
import { withStatementCache } from './sqlite/statement-cache.ts';
import { SQLite } from './sqlite/sqlite-driver.ts';
import { WalPacer } from './sqlite/wal-pacer.ts';
import type { Database } from './schema.ts';

// int8 (counts, sums, bigserial) as numbers: our counters stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

export interface Db {
  readonly kysely: Kysely<Database>;
  readonly codec: Codec;
  /** The raw SQLite handle, for the scan writer's synchronous group commit; null on PostgreSQL. */
  readonly sqlite: BetterSqlite3.Database | null;
  readonly pool: pg.Pool | null;
  /**
   * Between two slices of a long write: a turn of the event loop and, on SQLite, a wait for the
   * checkpointer when the WAL has grown long (sqlite/wal-pacer.ts). Absent: a turn only.
   */
  readonly paceWrites?: () => Promise<void>;
  /** SQLite: lets the scan writer and the aggregator hold their commits while the WAL starts over. */
  readonly commitGate?: CommitGate;
  close(): Promise<void>;
}

/** See WalPacer.holdCommits (sqlite/wal-pacer.ts). */
export interface CommitGate {
  /** True: hold the commit; `resume` is called when it may go. */
  holdCommits(resume: () => void): boolean;
  readonly holding: boolean;
  /** Resolves when commits may go again (at once when none are held). */
  released(): Promise<void>;
}

/** What a long write awaits between its slices (Db.paceWrites, or a turn). */
export function betweenSlices(db: Db): Promise<void> {
  return db.paceWrites ? db.paceWrites() : nextTurn();
}

export async function openDatabase(config: DatabaseConfig): Promise<Db> {
  const db = config.kind === 'sqlite' ? openSqlite(config.file) : openPostgres(config.url);
  try {
    await migrate(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  return db;
}

/**
 * SQLite's DDL is transactional, though Kysely's adapter says otherwise to be safe: saying so
 * makes the migrator run an upgrade in one transaction, so one cut off midway (a stop during a
 * long backfill) leaves the database as it was, instead of half-made tables that stopped every
 * later start with "table already exists".
 */
class MigratableSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class QrtrackSqliteDialect extends SqliteDialect {
  override createAdapter(): SqliteAdapter {
    return new MigratableSqliteAdapter();
  }
}

function openSqlite(file: string): Db {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  // WAL + synchronous=NORMAL: a committed transaction survives a process crash
  // (kill -9); only an OS crash may lose the last commits.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  // 64 MiB of page cache (the default is 2 MiB): the aggregator's upserts land all over the roll-up
  // tables when scans spread over many codes; 40 % more scans a second applied at a long tail.
  sqlite.pragma('cache_size = -65536');
  // Checkpoints run in a worker (sqlite-checkpointer.ts); the writer's own automatic
  // checkpoint stays as a safety net, far out, should the worker ever stop.
  const checkpointer = file === ':memory:' ? null : new SqliteCheckpointer(file);
  if (checkpointer) sqlite.pragma('wal_autocheckpoint = 20000');
  const kysely = new Kysely<Database>({ dialect: new QrtrackSqliteDialect({ database: withStatementCache(sqlite) }) });
  const pacer = checkpointer ? new WalPacer(file, () => checkpointer.drain()) : null;
  // The search index's segments are merged here between turns, not inside commits (migration 0019).
  const merger = new SearchIndexMerger(sqlite);
  merger.start();
  return {
    kysely,
    codec: codecFor('sqlite'),
    sqlite,
    pool: null,
    ...(pacer ? { paceWrites: () => pacer.pace(), commitGate: pacer } : {}),
    close: async () => {
      merger.stop();
      pacer?.close();
      await checkpointer?.close();
      await kysely.destroy();
    },
  };
}

function openPostgres(url: string): Db {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => {});
  const kysely = new Kysely<Database>({ dialect: new OwnSchemaPostgresDialect({ pool }) });
  return {
    kysely,
    codec: codecFor('postgres'),
    sqlite: null,
    pool,
    close: () => kysely.destroy(),
  };
}

// An arbitrary constant naming our migration lock among the database's advisory locks.
const MIGRATION_LOCK_KEY = 7_420_117;

async function migrate(db: Db): Promise<void> {
  if (db.codec.dialect === 'sqlite') {
    await migrateToLatest(db.kysely as Kysely<unknown>, 'sqlite');
    return;
  }
  // Several processes may start at once: one migrates, the others wait, then find nothing to do.
  await db.kysely.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`.execute(conn);
    try {
      await migrateToLatest(conn as Kysely<unknown>, 'postgres');
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.execute(conn);
    }
  });
}
