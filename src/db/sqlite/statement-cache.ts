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

export function withStatementCache(db: BetterSqlite3.Database, max = DEFAULT_STATEMENTS): SqliteDatabase {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => db.close(),
    prepare(sql: string): SqliteStatement {
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
