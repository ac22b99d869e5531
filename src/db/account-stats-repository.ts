// Reads for the account overview. Like the item stats, every query is bounded by the
// range (quarter hours and breakdown rows of the range) or by the account's codes scanned
// in it (one probe each into their running totals); none reads raw scans.
import { sql } from 'kysely';
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
   * A code's scans since `fromDay` are its latest running total less its last running total
   * before `fromDay`: two index probes per live code, read from the narrow index of live codes
   * and the running totals only (never the codes' rows, which may carry a large logo).
   */
  async topCodes(accountId: string, fromDay: string, limit: number): Promise<TopCode[]> {
    const since = (column: 'scans' | 'unique_scans') =>
      sql<number>`coalesce((select r.${sql.ref(column)} from item_running_totals r
          where r.item_id = q.id and r.day >= ${fromDay} order by r.day desc limit 1), 0)
        - coalesce((select r.${sql.ref(column)} from item_running_totals r
          where r.item_id = q.id and r.day < ${fromDay} order by r.day desc limit 1), 0)`;
    const top = await this.db.kysely
      .selectFrom('qr_items as q')
      .select(['q.id', since('scans').as('scans')])
      .where('q.account_id', '=', accountId)
      .where('q.deleted_at', 'is', null)
      .orderBy('scans', 'desc')
      .orderBy('q.id')
      .limit(integer(limit))
      .execute();
    const ids = top.filter((r) => Number(r.scans) > 0).map((r) => r.id);
    if (ids.length === 0) return [];
    // Names and unique scans only for the few codes shown.
    const shown = await this.db.kysely
      .selectFrom('qr_items as q')
      .select(['q.id', 'q.code', 'q.title', 'q.active', since('unique_scans').as('unique_scans')])
      .where('q.id', 'in', ids)
      .execute();
    const byId = new Map(shown.map((r) => [r.id, r]));
    return top.flatMap((t) => {
      const r = byId.get(t.id);
      if (!r) return [];
      return [{ id: r.id, code: r.code, title: r.title, active: readBool(r.active), scans: Number(t.scans), uniqueScans: Number(r.unique_scans) }];
    });
  }
}

function integer(n: number): number {
  if (!Number.isSafeInteger(n)) throw new Error(`expected an integer, got ${n}`);
  return n;
}
