// The plans SQLite chose for the statements a piece of work ran: a test of an index-driven
// query asserts the plan (EXPLAIN QUERY PLAN), never a time, on a noisy machine.
import type { Db } from '../../src/db/database.ts';
import { uncachedDuring } from '../../src/db/sqlite/statement-cache.ts';

export interface StatementPlan {
  sql: string;
  params: unknown[];
  /** The plan's lines (EXPLAIN QUERY PLAN's `detail`), in order. */
  plan: string[];
}

/** Runs `work` on SQLite and answers each statement it prepared with the plan SQLite gives it. */
export async function plansDuring(db: Db, work: () => Promise<unknown>): Promise<StatementPlan[]> {
  const sqlite = db.sqlite;
  if (!sqlite) throw new Error('plansDuring: SQLite only');
  const seen: { sql: string; params: unknown[] }[] = [];
  const prepare = sqlite.prepare.bind(sqlite);
  // Kysely prepares every statement it runs; each is recorded with the parameters it is run with.
  sqlite.prepare = ((source: string) => {
    const stmt = prepare(source);
    for (const method of ['run', 'all', 'get', 'iterate'] as const) {
      const original = stmt[method].bind(stmt) as (...params: unknown[]) => unknown;
      (stmt as unknown as Record<string, unknown>)[method] = (...params: unknown[]) => {
        seen.push({ sql: source, params });
        return original(...params);
      };
    }
    return stmt;
  }) as typeof sqlite.prepare;
  try {
    // Kept statements were prepared before: each must be prepared again to be seen.
    await uncachedDuring(sqlite, work);
  } finally {
    sqlite.prepare = prepare;
  }
  return seen
    .filter((s) => /^\s*(select|insert|update|delete|with)\b/i.test(s.sql))
    .map((s) => ({
      sql: s.sql,
      // Kysely passes the parameters as one array.
      params: s.params.flat(),
      plan: (sqlite.prepare(`explain query plan ${s.sql}`).all(...s.params) as { detail: string }[]).map((r) => r.detail),
    }));
}

/** The plans of the statements whose SQL matches `pattern`; fails when there is none. */
export function plansOf(plans: readonly StatementPlan[], pattern: RegExp): string[][] {
  const found = plans.filter((p) => pattern.test(p.sql)).map((p) => p.plan);
  if (found.length === 0) throw new Error(`no statement matched ${pattern}; ran:\n${plans.map((p) => p.sql).join('\n')}`);
  return found;
}
