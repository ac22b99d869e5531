// better-sqlite3 as Kysely sees it, with its prepared statements kept. Kysely's SQLite driver
// prepares every query it runs, and preparing (parsing and planning the SQL) cost as much as
// running many of our small queries: in the webhooks bench, preparing alone was 0.7 µs a
// redirect of the thread that answers short links (the delivery worker's claims and records,
// the feed), all of them the same few statements again and again. A statement is keyed by its
// SQL text, so the same query with other parameters reuses it; the least recently used go first.
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import type BetterSqlite3 from 'better-sqlite3';

/** Enough for every distinct query the server runs (lists of ids of many lengths make new keys). */
const DEFAULT_STATEMENTS = 500;

interface Cache {
  statements: Map<string, BetterSqlite3.Statement>;
  /** Runs of uncachedDuring() in progress: every query is prepared anew meanwhile. */
  bypass: number;
}

const caches = new WeakMap<BetterSqlite3.Database, Cache>();

export function withStatementCache(db: BetterSqlite3.Database, max = DEFAULT_STATEMENTS): SqliteDatabase {
  const cache: Cache = { statements: new Map(), bypass: 0 };
  caches.set(db, cache);
  const { statements } = cache;
  return {
    close: () => db.close(),
    prepare(sql: string): SqliteStatement {
      if (cache.bypass > 0) return db.prepare(sql);
      const kept = statements.get(sql);
      // Busy: a stream still iterates it; a statement runs one query at a time, so this one gets its own.
      if (kept !== undefined && !kept.busy) {
        statements.delete(sql);
        statements.set(sql, kept);
        return kept;
      }
      const fresh = db.prepare(sql);
      if (kept === undefined) {
        statements.set(sql, fresh);
        if (statements.size > max) statements.delete(statements.keys().next().value as string);
      }
      return fresh;
    },
  };
}

/**
 * Runs `work` with every query prepared anew on `db` (what a test that watches `prepare` needs
 * to see each statement), and starts the cache empty after it.
 */
export async function uncachedDuring<T>(db: BetterSqlite3.Database, work: () => Promise<T>): Promise<T> {
  const cache = caches.get(db);
  if (cache === undefined) return work();
  cache.bypass++;
  cache.statements.clear();
  try {
    return await work();
  } finally {
    cache.bypass--;
  }
}
