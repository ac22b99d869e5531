// Reads for the stats endpoint. Every query reads roll-ups bounded by the range, or
// the 20 newest raw scans by index: the cost does not grow with an item's total scans.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { type Kysely, sql } from 'kysely';
import type { DimRow, ItemCounters, LocalDayRow, RecentScan } from '../../domain/stats/build-stats.ts';
import { BUCKETS_PER_DAY } from '../../domain/stats/scan-buckets.ts';
import type { ItemLocalDayRow } from '../../domain/stats/sparklines.ts';
import type { OffsetSegment } from '../../domain/stats/time-zones.ts';
import type { BucketSpan } from '../../domain/stats/utc-cover.ts';
import { readBool, readTime, readTimeOrNull } from '../codec.ts';
import type { Db } from '../database.ts';
import type { Database } from '../schema.ts';

/** Items per sparkline query: a short hold of the SQLite thread (docs/performance.md). */
const ITEMS_PER_SLICE = 25;

export class StatsRepository {
  constructor(private readonly db: Db) {}

  async counters(accountId: string, id: string): Promise<ItemCounters | null> {
    const row = await this.db.kysely
      .selectFrom('qr_items')
      .select(['id', 'code', 'scan_count', 'unique_scan_count', 'bot_scan_count', 'first_scan_at', 'last_scan_at'])
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) return null;
    return {
      id: row.id,
      code: row.code,
      scanCount: Number(row.scan_count),
      uniqueScanCount: Number(row.unique_scan_count),
      botScanCount: Number(row.bot_scan_count),
      firstScanAt: readTimeOrNull(row.first_scan_at),
      lastScanAt: readTimeOrNull(row.last_scan_at),
    };
  }

  /** At most one row per local day and segment (a 90-day range is ~90 rows, not 8,640 buckets). */
  async localDays(itemId: string, segments: readonly OffsetSegment[]): Promise<LocalDayRow[]> {
    const rows = await this.localDaysOfItems([itemId], segments);
    return rows.map(({ day, scans, uniqueScans }) => ({ day, scans, uniqueScans }));
  }

  /**
   * The same for many items: at most one row per item, local day and segment, each read by a
   * range of the (item_id, bucket) primary key, so a page of 200 codes costs 200 short index
   * ranges however many scans they have in all. On SQLite, read in slices of items with a turn
   * of the event loop between them: its queries hold the loop that answers short links
   * (docs/performance.md).
   */
  async localDaysOfItems(itemIds: readonly string[], segments: readonly OffsetSegment[]): Promise<ItemLocalDayRow[]> {
    // PostgreSQL's driver is asynchronous: there, slices would only add round trips.
    const perSlice = this.db.codec.dialect === 'sqlite' ? ITEMS_PER_SLICE : Math.max(1, itemIds.length);
    const out: ItemLocalDayRow[] = [];
    for (let i = 0; i < itemIds.length; i += perSlice) {
      if (i > 0) await nextTurn();
      const slice = itemIds.slice(i, i + perSlice);
      const parts = await Promise.all(segments.map((seg) => this.localDaysOfSlice(slice, seg)));
      for (const part of parts) out.push(...part);
    }
    return out;
  }

  private async localDaysOfSlice(itemIds: readonly string[], seg: OffsetSegment): Promise<ItemLocalDayRow[]> {
    const rows = await this.db.kysely
      .selectFrom('scan_buckets')
      .select([
        'item_id',
        // Integer arithmetic in both engines (SQLite binds JS numbers as REAL, so these are
        // literals; they are integers we computed). bucket + offset > 0, so division floors.
        sql<number>`(bucket + ${sql.lit(integer(seg.offsetBuckets))}) / ${sql.lit(BUCKETS_PER_DAY)}`.as('day'),
        (eb) => eb.fn.sum<number>('scans').as('scans'),
        (eb) => eb.fn.sum<number>('unique_scans').as('unique_scans'),
      ])
      .where('item_id', 'in', itemIds)
      .where('bucket', '>=', seg.fromBucket)
      .where('bucket', '<', seg.toBucket)
      .groupBy([sql`1`, sql`2`])
      .execute();
    return rows.map((r) => ({ itemId: r.item_id, day: Number(r.day), scans: Number(r.scans), uniqueScans: Number(r.unique_scans) }));
  }

  async dims(itemId: string, fromDay: string, toDay: string): Promise<DimRow[]> {
    const rows = await this.db.kysely
      .selectFrom('scan_dims_daily')
      .select(['dim', 'value', (eb) => eb.fn.sum<number>('scans').as('scans')])
      .where('item_id', '=', itemId)
      .where('day', '>=', fromDay)
      .where('day', '<=', toDay)
      .groupBy(['dim', 'value'])
      .execute();
    return rows.map((r) => ({ dim: r.dim, value: r.value, scans: Number(r.scans) }));
  }

  /** Human scans by dimension and value in the given quarter hours (a range's part-days, at most two). */
  async dimsInSpans(itemId: string, spans: readonly BucketSpan[]): Promise<DimRow[]> {
    if (spans.length === 0) return [];
    const rows = await this.db.kysely
      .selectFrom('scan_dims_quarter')
      .select(['dim', 'value', (eb) => eb.fn.sum<number>('scans').as('scans')])
      .where('item_id', '=', itemId)
      .where((eb) => eb.or(spans.map((s) => eb.and([eb('bucket', '>=', s.fromBucket), eb('bucket', '<', s.toBucket)]))))
      .groupBy(['dim', 'value'])
      .execute();
    return rows.map((r) => ({ dim: r.dim, value: r.value, scans: Number(r.scans) }));
  }

  async recent(itemId: string, limit: number): Promise<RecentScan[]> {
    const query = (db: Kysely<Database>) =>
      db
        .selectFrom('scans')
        .select(['scanned_at', 'device', 'os', 'browser', 'country', 'referrer', 'is_bot'])
        .where('item_id', '=', itemId)
        .where('is_bot', '=', this.db.codec.bool(false))
        // A scan the code refused (schedule, expiry, cap, password) is no scan of it.
        .where('outcome', 'in', ['redirect', 'landing'])
        .orderBy('scanned_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
    // PostgreSQL: for an item not yet in the statistics the planner picks a bitmap scan that
    // reads and sorts all its scans; without one it walks the index and stops at `limit` (docs/scaling.md).
    const rows =
      this.db.codec.dialect === 'postgres'
        ? await this.db.kysely.transaction().execute(async (trx) => {
            await sql`set local enable_bitmapscan = off`.execute(trx);
            return query(trx);
          })
        : await query(this.db.kysely);
    return rows
      .filter((r) => !readBool(r.is_bot))
      .map((r) => ({
        scannedAt: readTime(r.scanned_at),
        device: r.device,
        os: r.os,
        browser: r.browser,
        country: r.country,
        referrer: r.referrer,
      }));
  }
}

function integer(n: number): number {
  if (!Number.isSafeInteger(n)) throw new Error(`expected an integer, got ${n}`);
  return n;
}
