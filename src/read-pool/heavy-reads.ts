// The reads that can take more than a few milliseconds (item stats, the account overview, a
// page of the codes list and its sparklines, exports), as the routes ask for them. On a SQLite file they run in the
// read workers (read-pool.ts); on PostgreSQL, whose driver is asynchronous and whose queries
// run in the database server, and on an in-memory SQLite database, which no other connection
// can open, they run here, through the same operations (read-operations.ts).
import { type ExportFilter, type ExportFormat, type ExportPageQuery, exportCodes, exportCodesByPage } from '../bulk/export-codes.ts';
import { pageAfter, readPages } from '../bulk/paged-read.ts';
import type { Config } from '../config.ts';
import type { QrItemRecord } from '../domain/qr-items/qr-item.ts';
import type { Db } from '../db/database.ts';
import type { ListCursor } from '../domain/qr-items/list-cursor.ts';
import type { LinkAddressTable } from '../domain/qr-items/short-code.ts';
import type { AccountStats } from '../domain/stats/account-stats.ts';
import type { Stats } from '../domain/stats/build-stats.ts';
import type { Sparklines } from '../domain/stats/sparklines.ts';
import type { ForgetPlanner } from '../db/scans/sqlite-forget-day.ts';
import type { ScanBatchMaker } from '../db/webhooks/scan-batches.ts';
import { type ListPage, type ReadOps, readOperations } from './read-operations.ts';
import { ReadPool } from './read-pool.ts';

/** Codes a worker reads and formats per export page: some tens of milliseconds of the worker, none of the main thread. */
const WORKER_EXPORT_PAGE = 500;

export interface HeavyReads {
  itemStats(args: ReadOps['itemStats']['args']): Promise<Stats>;
  accountStats(args: ReadOps['accountStats']['args']): Promise<AccountStats>;
  sparklines(accountId: string, args: ReadOps['sparklines']['args']): Promise<Sparklines>;
  /** A page of the codes list and, with `sparklineTz`, its sparklines. */
  listPage(args: ReadOps['listPage']['args']): Promise<ListPage>;
  /**
   * The export file in pieces. In the workers its first page is read before this resolves, so a
   * busy pool answers 503 before the answer begins; later pages wait their turn instead.
   */
  exportCodes(accountId: string, filter: ExportFilter, format: ExportFormat, links: LinkAddressTable): Promise<AsyncGenerator<string>>;
  /** The filter's codes, newest first, at most `size` a page (a ZIP export's). */
  codePages(accountId: string, filter: ExportFilter, size: number): AsyncGenerator<QrItemRecord[]>;
  /**
   * Plans forgetting one day of a code's scans in a read worker; null where reads run on this
   * thread (the forgetter then plans inside its own write transaction).
   */
  readonly forgetPlanner: ForgetPlanner | null;
  /** Makes scan.created bodies in a read worker; null where reads run on this thread. */
  readonly scanBatchMaker: ScanBatchMaker | null;
  /** The read workers, or null where reads run on this thread. */
  readonly pool: ReadPool | null;
  close(): Promise<void>;
}

export function heavyReadsFor(config: Config, db: Db): HeavyReads {
  const { database, reads } = config;
  if (database.kind === 'sqlite' && database.file !== ':memory:' && db.codec.dialect === 'sqlite' && reads.workers > 0)
    return pooledReads(new ReadPool(database.file, reads));
  return inProcessReads(db);
}

/** Reads on this thread: PostgreSQL's queries wait in its server; SQLite's slice themselves (READ_WORKERS=0). */
function inProcessReads(db: Db): HeavyReads {
  const ops = readOperations(db);
  return {
    itemStats: ops.itemStats,
    accountStats: ops.accountStats,
    sparklines: (_accountId, args) => ops.sparklines(args),
    listPage: ops.listPage,
    exportCodes: async (accountId, filter, format, links) => exportCodes(db, accountId, filter, format, links),
    codePages: (accountId, filter, size) => readPages(db, accountId, filter, size),
    forgetPlanner: null,
    scanBatchMaker: null,
    pool: null,
    close: async () => {},
  };
}

function pooledReads(pool: ReadPool): HeavyReads {
  return {
    itemStats: (args) => pool.run({ account: args.accountId, lane: 'interactive' }, 'itemStats', { now: Date.now(), ...args }),
    accountStats: (args) => pool.run({ account: args.accountId, lane: 'interactive' }, 'accountStats', { now: Date.now(), ...args }),
    sparklines: (accountId, args) => pool.run({ account: accountId, lane: 'interactive' }, 'sparklines', { now: Date.now(), ...args }),
    listPage: (args) => pool.run({ account: args.accountId, lane: 'interactive' }, 'listPage', { now: Date.now(), ...args }),
    exportCodes: async (accountId, filter, format, links) => {
      // Every code's status as of the export's start.
      const now = Date.now();
      const page = (after: ListCursor | null, first: boolean): ExportPageQuery => ({
        accountId,
        filter,
        format,
        links,
        after,
        size: WORKER_EXPORT_PAGE,
        first,
        now,
      });
      const first = await pool.run({ account: accountId, lane: 'bulk' }, 'exportPage', page(null, true));
      return exportCodesByPage(format, first, (after, isFirst) =>
        pool.run({ account: accountId, lane: 'bulk', bounded: false }, 'exportPage', page(after, isFirst)),
      );
    },
    codePages: async function* (accountId, filter, size) {
      const now = Date.now();
      let cursor: ListCursor | null = null;
      for (;;) {
        // Read once the answer has begun, so never refused: each waits its turn (an account runs one export at a time).
        const page: ListPage = await pool.run({ account: accountId, lane: 'bulk', bounded: false }, 'listPage', {
          accountId,
          query: { ...filter, limit: size, cursor: cursor ?? undefined },
          now,
        });
        if (page.items.length > 0) yield page.items;
        cursor = pageAfter(page);
        if (cursor === null) return;
      }
    },
    // Waits its turn rather than answer 503: the forget has caught the roll-ups up and holds them.
    forgetPlanner: (day) => pool.run({ account: day.accountId, lane: 'bulk', bounded: false }, 'forgetPlan', day),
    // Waits its turn: the delivery worker gives the claim back if the wait outlasts its lease.
    scanBatchMaker: (batch) => pool.run({ account: batch.accountId, lane: 'bulk', bounded: false }, 'scanBatch', batch),
    pool,
    close: () => pool.close(),
  };
}
