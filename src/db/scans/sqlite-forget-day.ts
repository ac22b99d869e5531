// One day's forget plan (forget-plan.ts) read from a SQLite connection: a read worker's, so that
// reading a busy day's raw scans (some microseconds each, a second for a day of 100,000) never
// holds the thread that answers short links, or the server's own where there are no workers
// (READ_WORKERS=0, an in-memory database). Read in one snapshot: the caller's transaction.
import type SQLite from 'better-sqlite3';
import { type DayRows, type ForgetDay, type Statement, dayReads, planForgetDay } from './forget-plan.ts';
import { type LoggedScanRow, toLoggedScan } from './logged-scan.ts';

/** What one day's forgetting writes, and how many scans it forgets. */
export interface ForgetDayPlan {
  statements: Statement[];
  forgotten: number;
}

/** Where a day is planned off this thread (a read worker, heavy-reads.ts). */
export type ForgetPlanner = (day: ForgetDay) => Promise<ForgetDayPlan>;

export function planSqliteForgetDay(sqlite: SQLite.Database, d: ForgetDay): ForgetDayPlan {
  const reads = dayReads(d, (b) => (b ? 1 : 0));
  const all = <T>(s: Statement) => sqlite.prepare(s.sql).all(...s.params.map(sqliteValue)) as T[];
  const rows: DayRows = {
    buckets: all(reads.buckets),
    dims: all(reads.dims),
    quarterDims: all(reads.quarterDims),
    scans: all<LoggedScanRow>(reads.scans).map(toLoggedScan),
  };
  const plan = planForgetDay(d, rows);
  return { statements: plan.statements, forgotten: plan.forgotten };
}

export function runSqliteStatements(sqlite: SQLite.Database, statements: readonly Statement[]): void {
  for (const s of statements) sqlite.prepare(s.sql).run(...s.params.map(sqliteValue));
}

function sqliteValue(v: string | number | boolean | null): string | number | null {
  return typeof v === 'boolean' ? (v ? 1 : 0) : v;
}
