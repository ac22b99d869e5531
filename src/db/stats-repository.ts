// Reads for the stats endpoint. Every query reads roll-ups bounded by the range, or
// the 20 newest raw scans by index: the cost does not grow with an item's total scans.
import type { BucketRow, DimRow, ItemCounters, RecentScan } from '../domain/stats/build-stats.ts';
import { readBool, readTime, readTimeOrNull } from './codec.ts';
import type { Db } from './database.ts';

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

  async buckets(itemId: string, fromBucket: number, toBucket: number): Promise<BucketRow[]> {
    const rows = await this.db.kysely
      .selectFrom('scan_buckets')
      .select(['bucket', 'scans', 'unique_scans'])
      .where('item_id', '=', itemId)
      .where('bucket', '>=', fromBucket)
      .where('bucket', '<', toBucket)
      .execute();
    return rows.map((r) => ({ bucket: Number(r.bucket), scans: Number(r.scans), uniqueScans: Number(r.unique_scans) }));
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

  async recent(itemId: string, limit: number): Promise<RecentScan[]> {
    const rows = await this.db.kysely
      .selectFrom('scans')
      .select(['scanned_at', 'device', 'os', 'browser', 'country', 'referrer', 'is_bot'])
      .where('item_id', '=', itemId)
      .where('is_bot', '=', this.db.codec.bool(false))
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows
      .filter((r) => !readBool(r.is_bot))
      .map((r) => ({ scannedAt: readTime(r.scanned_at), device: r.device, os: r.os, browser: r.browser, country: r.country, referrer: r.referrer }));
  }
}
