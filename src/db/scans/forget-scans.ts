// Forgetting an item's scans (DELETE /v1/qr/{id}/scans): the roll-ups are caught up first, then
// each UTC day of the range is rebuilt from the scans that stay (forget-plan.ts). On PostgreSQL
// the whole range is one transaction under the aggregator's lock. On SQLite each day is one
// transaction with a turn of the event loop between days, its raw scans read in a read worker
// (sqlite-forget-day.ts), so neither a long range nor a busy day holds the thread that answers
// short links for more than the day's writes; every state between two days is itself exact.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type pg from 'pg';
import type SQLite from 'better-sqlite3';
import { NotFoundError, ServiceBusyError } from '../../domain/errors.ts';
import { BUCKETS_PER_DAY, bucketOf, utcDay } from '../../domain/stats/scan-buckets.ts';
import type { Db } from '../database.ts';
import { type DayRows, type ForgetDay, type Statement, dayReads, planForgetDay } from './forget-plan.ts';
import { type LoggedScanRow, toLoggedScan } from './logged-scan.ts';
import { type ForgetPlanner, planSqliteForgetDay, runSqliteStatements } from './sqlite-forget-day.ts';
import { AGGREGATOR_LOCK, type RollupAggregator } from './rollup-aggregator.ts';

export interface ForgetRange {
  /** ISO times; absent: from the first scan, to now. */
  from?: string;
  to?: string;
}

/** Plans of a day that retention overtook before it was written: this many, then 503. */
const PLAN_ATTEMPTS = 3;

const EARLIEST = '1970-01-01T00:00:00.000Z';
const LATEST = '9999-12-31T23:59:59.999Z';

export class ScanForgetter {
  constructor(
    private readonly db: Db,
    private readonly rollups: RollupAggregator,
    /** SQLite with read workers: where a day's plan is read (heavy-reads.ts); null: on this thread. */
    private readonly planner: ForgetPlanner | null = null,
  ) {}

  /** Forgets the item's scans in [from, to); answers how many scans went. */
  async forget(accountId: string, itemId: string, range: ForgetRange, now = Date.now()): Promise<{ forgotten: number }> {
    const item = await this.db.kysely
      .selectFrom('qr_items')
      .innerJoin('accounts', 'accounts.id', 'qr_items.account_id')
      .select(['qr_items.id'])
      .where('qr_items.id', '=', itemId)
      .where('qr_items.account_id', '=', accountId)
      .where('qr_items.deleted_at', 'is', null)
      .executeTakeFirst();
    if (!item) throw new NotFoundError('qr item not found');
    await this.rollups.catchUp();
    const from = range.from ?? EARLIEST;
    const to = range.to ?? LATEST;
    const buckets = await this.db.kysely
      .selectFrom('scan_buckets')
      .select('bucket')
      .where('item_id', '=', itemId)
      .where('bucket', '>=', bucketOf(Date.parse(from)))
      .where('bucket', '<=', bucketOf(Math.min(Date.parse(to) - 1, now + 86_400_000)))
      .execute();
    const days = [...new Set(buckets.map((b) => utcDay(Math.floor(Number(b.bucket) / BUCKETS_PER_DAY) * 86_400_000)))].sort();
    const today = utcDay(now);
    const yesterday = utcDay(now - 86_400_000);
    // The retention's mark is read with the cursor, inside each transaction: retention may move it meanwhile.
    const dayOf = (day: string, position: number, rawFrom: string | null): ForgetDay => ({
      itemId,
      accountId,
      day,
      from,
      to,
      raw: rawFrom === null || day >= rawFrom,
      position,
      visitorsKept: day === today || day === yesterday,
    });
    const sqlite = this.db.sqlite;
    if (sqlite) {
      const turn = this.sqliteTurn.then(() => this.forgetDaysOnSqlite(sqlite, days, dayOf, itemId, accountId));
      this.sqliteTurn = turn.catch(() => {});
      return turn;
    }
    if (this.db.pool) return this.forgetOnPostgres(this.db.pool, days, dayOf, itemId, accountId);
    throw new Error('no database');
  }

  /** One forget at a time on SQLite: each plans from the roll-ups as the one before left them. */
  private sqliteTurn: Promise<unknown> = Promise.resolve();

  private async forgetDaysOnSqlite(
    sqlite: SQLite.Database,
    days: string[],
    dayOf: (day: string, position: number, rawFrom: string | null) => ForgetDay,
    itemId: string,
    accountId: string,
  ): Promise<{ forgotten: number }> {
    const position = sqlite.prepare<[], { position: number }>(`select position from log_cursors where name = 'rollups'`);
    const rawFrom = sqlite.prepare<[string], { raw_scans_from: string | null }>('select raw_scans_from from accounts where id = ?');
    let forgotten = 0;
    for (const [i, day] of days.entries()) {
      if (i > 0) await nextTurn();
      const now = () => dayOf(day, Number(position.get()?.position ?? 0), rawFrom.get(accountId)?.raw_scans_from ?? null);
      forgotten += await this.forgetSqliteDay(sqlite, now);
    }
    sqlite.transaction(() =>
      runSqliteStatements(
        sqlite,
        firstAndLast(itemId, (b) => (b ? 1 : 0)),
      ),
    )();
    return { forgotten };
  }

  /**
   * One day, in one transaction. With read workers, the day is planned in one of them while this
   * process's aggregator is held (so the roll-ups and the cursor the plan was read against stay
   * as they were) and only the plan's writes run here; without, it is planned and written here.
   */
  private async forgetSqliteDay(sqlite: SQLite.Database, dayNow: () => ForgetDay): Promise<number> {
    const planner = this.planner;
    if (planner === null) {
      return sqlite
        .transaction(() => {
          const plan = planSqliteForgetDay(sqlite, dayNow());
          runSqliteStatements(sqlite, plan.statements);
          return plan.forgotten;
        })
        .immediate();
    }
    for (let attempt = 0; attempt < PLAN_ATTEMPTS; attempt++) {
      const release = this.rollups.hold();
      try {
        const day = dayNow();
        const plan = await planner(day);
        const written = sqlite
          .transaction(() => {
            // Retention may have passed the day while it was planned: then plan it again.
            const now = dayNow();
            if (now.raw !== day.raw || now.position !== day.position) return null;
            runSqliteStatements(sqlite, plan.statements);
            return plan.forgotten;
          })
          .immediate();
        if (written !== null) return written;
      } finally {
        release();
      }
    }
    throw new ServiceBusyError('scans: the scan data changed while this was planned; try again in a moment', 1);
  }

  private async forgetOnPostgres(
    pool: pg.Pool,
    days: string[],
    dayOf: (day: string, position: number, rawFrom: string | null) => ForgetDay,
    itemId: string,
    accountId: string,
  ): Promise<{ forgotten: number }> {
    const client = await pool.connect();
    try {
      await client.query('begin');
      // The aggregator waits meanwhile: the roll-ups of these days are rewritten here.
      await client.query('select pg_advisory_xact_lock($1, hashtext(current_schema()))', [AGGREGATOR_LOCK]);
      const cursor = await client.query<{ position: string }>(`select position from log_cursors where name = 'rollups'`);
      const position = Number(cursor.rows[0]?.position ?? 0);
      const account = await client.query<{ raw_scans_from: string | null }>('select raw_scans_from from accounts where id = $1', [
        accountId,
      ]);
      const rawFrom = account.rows[0]?.raw_scans_from ?? null;
      const run = async <T extends object>(s: Statement) => (await client.query<T>(numbered(s.sql), s.params)).rows;
      let forgotten = 0;
      for (const day of days) {
        const d = dayOf(day, position, rawFrom);
        const reads = dayReads(d, (b) => b);
        const rows: DayRows = {
          buckets: await run(reads.buckets),
          dims: await run(reads.dims),
          quarterDims: await run(reads.quarterDims),
          scans: (await run<LoggedScanRow>(reads.scans)).map(toLoggedScan),
        };
        const plan = planForgetDay(d, rows);
        for (const s of plan.statements) await run(s);
        forgotten += plan.forgotten;
      }
      for (const s of firstAndLast(itemId, (b) => b)) await run(s);
      await client.query('commit');
      return { forgotten };
    } catch (err) {
      await client.query('rollback').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }
}

/** The item's first and last scan times from the raw scans that stay (unchanged where none are left but the counts are). */
function firstAndLast(itemId: string, bool: (b: boolean) => number | boolean): Statement[] {
  const edge = (dir: 'asc' | 'desc') =>
    `(select scanned_at from scans where item_id = ? and is_bot = ? and outcome in ('redirect', 'landing') order by scanned_at ${dir} limit 1)`;
  return [
    {
      sql: `update qr_items set first_scan_at = case when scan_count = 0 then null else coalesce(${edge('asc')}, first_scan_at) end,
              last_scan_at = case when scan_count = 0 then null else coalesce(${edge('desc')}, last_scan_at) end where id = ?`,
      params: [itemId, bool(false), itemId, bool(false), itemId],
    },
  ];
}

/** `?` placeholders as PostgreSQL's `$1, $2, …` (the statements hold no other question marks). */
function numbered(sql: string): string {
  let i = 0;
  return sql.replace(/\?/g, () => `$${++i}`);
}
