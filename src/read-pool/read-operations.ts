// The heavy reads, as named operations with plain-data arguments and answers: the protocol
// between the thread answering short links and the read workers (read-pool.ts). Each runs the
// same repositories and domain code in both places, so there is one set of queries; a worker
// only ever runs these, never SQL it is sent.
import { type ExportPage, type ExportPageQuery, exportPage } from '../bulk/export-codes.ts';
import type { Db } from '../db/database.ts';
import { AccountStatsRepository } from '../db/stats/account-stats-repository.ts';
import { StatsRepository } from '../db/stats/stats-repository.ts';
import { type AccountStats, accountStats } from '../domain/stats/account-stats.ts';
import type { Stats } from '../domain/stats/build-stats.ts';
import { itemStats } from '../domain/stats/item-stats.ts';
import { type Sparklines, sparklines } from '../domain/stats/sparklines.ts';
import { type ListQuery, QrItemsRepository } from '../db/qr-items/qr-items-repository.ts';
import type { ListCursor } from '../domain/qr-items/list-cursor.ts';
import type { QrItemRecord } from '../domain/qr-items/qr-item.ts';
import type { ForgetDay } from '../db/scans/forget-plan.ts';
import { type ForgetDayPlan, planSqliteForgetDay } from '../db/scans/sqlite-forget-day.ts';
import { type ScanBatch, scanBatchMaker } from '../db/webhooks/scan-batches.ts';

/** A page of the codes list (GET /v1/qr), with its sparklines when asked for, read in one snapshot. */
export interface ListPage {
  items: QrItemRecord[];
  more: boolean;
  resumeAfter?: ListCursor | undefined;
  sparklines?: Sparklines;
}

/**
 * Each operation's arguments and answer. `now` is the request's time on the thread that took it,
 * so an answer's range and a code's status do not depend on which thread read them.
 */
export interface ReadOps {
  itemStats: { args: { accountId: string; id: string; days: number; tz: string; now?: number }; answer: Stats };
  accountStats: { args: { accountId: string; days: number; tz: string; top?: number; now?: number }; answer: AccountStats };
  sparklines: { args: { itemIds: readonly string[]; tz: string; now?: number }; answer: Sparklines };
  exportPage: { args: ExportPageQuery; answer: ExportPage };
  listPage: { args: { accountId: string; query: ListQuery; sparklineTz?: string | undefined; now?: number }; answer: ListPage };
  /** What forgetting a code's scans of one day writes (DELETE /v1/qr/{id}/scans on SQLite), read in one snapshot. */
  forgetPlan: { args: ForgetDay; answer: ForgetDayPlan };
  /** A scan.created message's body, made from the log as it is sent (in shared memory; null: no scan of it is left). */
  scanBatch: { args: ScanBatch; answer: Uint8Array | null };
}

export type ReadKind = keyof ReadOps;
export const READ_KINDS: readonly ReadKind[] = [
  'itemStats',
  'accountStats',
  'sparklines',
  'exportPage',
  'listPage',
  'forgetPlan',
  'scanBatch',
];

export type ReadJob = { [K in ReadKind]: { kind: K; args: ReadOps[K]['args'] } }[ReadKind];

/** Errors cross the thread boundary as plain data: a structured clone keeps neither class nor status. */
export type ReadOutcome = { ok: true; answer: unknown } | { ok: false; status: number; message: string };

export type ReadOperations = { [K in ReadKind]: (args: ReadOps[K]['args']) => Promise<ReadOps[K]['answer']> };

/** The operations over a database: the server's own (PostgreSQL) or a read worker's read-only connection. */
export function readOperations(db: Db): ReadOperations {
  const stats = new StatsRepository(db);
  const account = new AccountStatsRepository(db);
  return {
    itemStats: (args) => itemStats(stats, args),
    accountStats: (args) => accountStats(account, args),
    sparklines: (args) => sparklines(stats, args),
    exportPage: (args) => exportPage(db, args),
    listPage: async ({ accountId, query, sparklineTz, now }) => {
      const page = await new QrItemsRepository(db).list(accountId, now === undefined ? query : { now, ...query });
      if (sparklineTz === undefined) return page;
      const itemIds = page.items.map((i) => i.id);
      return {
        ...page,
        sparklines: await sparklines(stats, now === undefined ? { itemIds, tz: sparklineTz } : { itemIds, tz: sparklineTz, now }),
      };
    },
    forgetPlan: async (day) => {
      if (!db.sqlite) throw new Error('forgetPlan: a SQLite connection only');
      return planSqliteForgetDay(db.sqlite, day);
    },
    scanBatch: scanBatchMaker(db),
  };
}

/**
 * Runs a job in one read transaction of its own, begun when the job runs (so after its request
 * arrived): in WAL mode a read transaction sees every transaction committed before its first
 * read, and the scan writer commits a scan before its redirect answers, so a scan answered
 * before the request is in the answer (read-your-writes). One snapshot also keeps an answer's
 * parts (counters, series, breakdowns) consistent with each other.
 */
export async function runReadJob(db: Db, job: ReadJob): Promise<unknown> {
  return db.kysely.transaction().execute<unknown>((trx) => {
    const ops = readOperations({ ...db, kysely: trx });
    switch (job.kind) {
      case 'itemStats':
        return ops.itemStats(job.args);
      case 'accountStats':
        return ops.accountStats(job.args);
      case 'sparklines':
        return ops.sparklines(job.args);
      case 'exportPage':
        return ops.exportPage(job.args);
      case 'listPage':
        return ops.listPage(job.args);
      case 'forgetPlan':
        return ops.forgetPlan(job.args);
      case 'scanBatch':
        return ops.scanBatch(job.args);
    }
  });
}
