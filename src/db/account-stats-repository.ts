// Reads for the account overview. Like the item stats, every query is bounded by the
// range (quarter hours and breakdown rows of the range) or by the account's codes scanned
// in it (one probe each into their running totals); none reads raw scans.
import { type RawBuilder, sql } from 'kysely';
import type { AccountDayRow, AccountStatsSource, TopCode } from '../domain/stats/account-stats.ts';
import type { DimRow } from '../domain/stats/build-stats.ts';
import { BUCKETS_PER_DAY } from '../domain/stats/scan-buckets.ts';
import type { OffsetSegment } from '../domain/stats/time-zones.ts';
import { readBool } from './codec.ts';
import type { Db } from './database.ts';

export class AccountStatsRepository implements AccountStatsSource {
  constructor(private readonly db: Db) {}

  async liveCodes(accountId: string): Promise<number> {
    const row = await this.db.kysely
      .selectFrom('qr_items')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async accountLocalDays(accountId: string, segments: readonly OffsetSegment[]): Promise<AccountDayRow[]> {
    const parts = await Promise.all(
      segments.map((seg) =>
        this.db.kysely
          .selectFrom('account_buckets')
          .select([
            // As for items: integer literals (SQLite binds JS numbers as REAL); bucket + offset > 0.
            sql<number>`(bucket + ${sql.lit(integer(seg.offsetBuckets))}) / ${sql.lit(BUCKETS_PER_DAY)}`.as('day'),
            (eb) => eb.fn.sum<number>('scans').as('scans'),
            (eb) => eb.fn.sum<number>('unique_scans').as('unique_scans'),
            (eb) => eb.fn.sum<number>('bot_scans').as('bot_scans'),
          ])
          .where('account_id', '=', accountId)
          .where('bucket', '>=', seg.fromBucket)
          .where('bucket', '<', seg.toBucket)
          .groupBy(sql`1`)
          .execute(),
      ),
    );
    return parts
      .flat()
      .map((r) => ({ day: Number(r.day), scans: Number(r.scans), uniqueScans: Number(r.unique_scans), botScans: Number(r.bot_scans) }));
  }

  async accountDims(accountId: string, fromDay: string, toDay: string): Promise<DimRow[]> {
    const rows = await this.db.kysely
      .selectFrom('account_dims_daily')
      .select(['dim', 'value', (eb) => eb.fn.sum<number>('scans').as('scans')])
      .where('account_id', '=', accountId)
      .where('day', '>=', fromDay)
      .where('day', '<=', toDay)
      .groupBy(['dim', 'value'])
      .execute();
    return rows.map((r) => ({ dim: r.dim, value: r.value, scans: Number(r.scans) }));
  }

  /**
   * A code's scans since `fromDay` are its latest running total (its counter) less its last
   * running total before `fromDay`: one or two index probes per code, whatever its scans.
   */
  async topCodes(accountId: string, fromDay: string, limit: number): Promise<TopCode[]> {
    const before = (column: 'scans' | 'unique_scans') =>
      sql<number>`coalesce((select r.${sql.ref(column)} from item_running_totals r
          where r.item_id = q.id and r.day < ${fromDay} order by r.day desc limit 1), 0)`;
    const top =
      this.db.codec.dialect === 'postgres'
        ? await this.topOnPostgres(accountId, fromDay, limit, before('scans'))
        : await this.topOnSqlite(accountId, fromDay, limit, before('scans'));
    const ids = top.filter((r) => Number(r.scans) > 0).map((r) => r.id);
    if (ids.length === 0) return [];
    // Names and unique scans only for the few codes shown.
    const shown = await this.db.kysely
      .selectFrom('qr_items as q')
      .select(['q.id', 'q.code', 'q.title', 'q.active', sql<number>`q.unique_scan_count - ${before('unique_scans')}`.as('unique_scans')])
      .where('q.id', 'in', ids)
      .execute();
    const byId = new Map(shown.map((r) => [r.id, r]));
    return top.flatMap((t) => {
      const r = byId.get(t.id);
      if (!r) return [];
      return [{ id: r.id, code: r.code, title: r.title, active: readBool(r.active), scans: Number(t.scans), uniqueScans: Number(r.unique_scans) }];
    });
  }

  /**
   * SQLite reads only the partial index of live codes and the running totals (a WITHOUT ROWID
   * table: one seek a probe), never the codes' rows, which can be large (a custom logo lives in
   * the design) and would be read through their overflow pages.
   */
  private topOnSqlite(accountId: string, fromDay: string, limit: number, before: RawBuilder<number>) {
    const latest = sql<number>`coalesce((select r.scans from item_running_totals r
        where r.item_id = q.id and r.day >= ${fromDay} order by r.day desc limit 1), 0)`;
    return this.db.kysely
      .selectFrom('qr_items as q')
      .select(['q.id', sql<number>`${latest} - ${before}`.as('scans')])
      .where('q.account_id', '=', accountId)
      .where('q.deleted_at', 'is', null)
      .orderBy('scans', 'desc')
      .orderBy('q.id')
      .limit(integer(limit))
      .execute();
  }

  /**
   * PostgreSQL reads the codes' rows anyway (a table updated on every scan gets no index-only
   * scans; large designs live out of line in TOAST and are not read): the counter is there, and
   * so is the last scan, which skips codes not scanned in the range, leaving one probe per code
   * scanned in it. JIT is off: the planner prices 10,000 probes high enough to compile the
   * query, which costs more than running it.
   */
  private topOnPostgres(accountId: string, fromDay: string, limit: number, before: RawBuilder<number>) {
    const since = this.db.codec.time(`${fromDay}T00:00:00.000Z`);
    return this.db.kysely.transaction().execute(async (trx) => {
      await sql`set local jit = off`.execute(trx);
      return trx
        .selectFrom('qr_items as q')
        .select(['q.id', sql<number>`q.scan_count - ${before}`.as('scans')])
        .where('q.account_id', '=', accountId)
        .where('q.deleted_at', 'is', null)
        .where('q.last_scan_at', '>=', since)
        .orderBy('scans', 'desc')
        .orderBy('q.id')
        .limit(integer(limit))
        .execute();
    });
  }
}

function integer(n: number): number {
  if (!Number.isSafeInteger(n)) throw new Error(`expected an integer, got ${n}`);
  return n;
}
