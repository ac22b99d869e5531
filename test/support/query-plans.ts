// The plans SQLite chose for the statements a piece of work ran: a test of an index-driven
// query asserts the plan (EXPLAIN QUERY PLAN), never a time, on a noisy machine.
import type { Db } from '../../src/db/database.ts';

/** What a better-sqlite3 statement tells of itself. */
interface StatementLike {
  database: unknown;
  source: string;
}

export interface StatementPlan {
  sql: string;
  params: unknown[];
  /** The plan's lines (EXPLAIN QUERY PLAN's `detail`), in order. */
  plan: string[];
}

/** Runs `work` on SQLite and answers each statement it ran on `db` with the plan SQLite gives it. */
export async function plansDuring(db: Db, work: () => Promise<unknown>): Promise<StatementPlan[]> {
  const sqlite = db.sqlite;
  if (!sqlite) throw new Error('plansDuring: SQLite only');
  const seen: { sql: string; params: unknown[] }[] = [];
  // Statements are prepared once and kept (statement-cache.ts), so each run is recorded where it
  // happens: on the statements' shared prototype, for this database's statements only.
  const proto = Object.getPrototypeOf(sqlite.prepare('select 1')) as Record<string, unknown>;
  type Run = (this: StatementLike, ...params: unknown[]) => unknown;
  const originals = new Map((['run', 'all', 'get', 'iterate'] as const).map((m) => [m, proto[m] as Run]));
  for (const [method, original] of originals) {
    proto[method] = function (this: StatementLike, ...params: unknown[]) {
      if (this.database === sqlite) seen.push({ sql: this.source, params });
      return original.apply(this, params);
    };
  }
  try {
    await work();
  } finally {
    for (const [method, original] of originals) proto[method] = original;
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
