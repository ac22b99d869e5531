// Scan recording on SQLite with group commit: scans arriving in the same turn of the
// event loop are written in one transaction, and each caller's promise resolves only
// after that transaction has committed. So a redirect is answered only once its scan
// is durable (WAL, synchronous=NORMAL: survives kill -9), while a busy server pays
// one commit per batch instead of one per scan.
import type SQLite from 'better-sqlite3';
import { type ScanEvent, firstVisitsInBatch, scanDay, sumBatch } from '../../domain/scans/scan-batch.ts';
import { LruCache } from '../../domain/scans/lru-cache.ts';
import type { ScanWriteObserver, ScanWriter } from './scan-writer.ts';

interface Pending {
  scan: ScanEvent;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** Bounds one transaction, so a burst cannot hold the writer for long. */
const MAX_BATCH = 512;

export class SqliteScanWriter implements ScanWriter {
  private queue: Pending[] = [];
  private scheduled = false;
  private readonly writeBatch: (scans: ScanEvent[]) => void;
  /** The latest UTC day this process wrote a running total for, per code (cleared when a batch fails). */
  private latestDay = new LruCache<string, string>(50_000);

  constructor(
    sqlite: SQLite.Database,
    private readonly observer: ScanWriteObserver | null = null,
  ) {
    const insertScan = sqlite.prepare(
      `insert into scans (item_id, scanned_at, is_bot, device, os, browser, country, referrer, visitor_hash, outcome, rule_id, variant,
         destination)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertVisitor = sqlite.prepare('insert or ignore into scan_visitors (item_id, day, visitor_hash) values (?, ?, ?)');
    const upsertBucket = sqlite.prepare(
      `insert into scan_buckets (item_id, bucket, scans, unique_scans, bot_scans) values (?, ?, ?, ?, ?)
       on conflict (item_id, bucket) do update set scans = scans + excluded.scans,
         unique_scans = unique_scans + excluded.unique_scans, bot_scans = bot_scans + excluded.bot_scans`,
    );
    const upsertDim = sqlite.prepare(
      `insert into scan_dims_daily (item_id, day, dim, value, scans) values (?, ?, ?, ?, ?)
       on conflict (item_id, day, dim, value) do update set scans = scans + excluded.scans`,
    );
    const upsertQuarterDim = sqlite.prepare(
      `insert into scan_dims_quarter (item_id, bucket, dim, value, scans) values (?, ?, ?, ?, ?)
       on conflict (item_id, bucket, dim, value) do update set scans = scans + excluded.scans`,
    );
    const updateItem = sqlite.prepare(
      `update qr_items set scan_count = scan_count + ?, unique_scan_count = unique_scan_count + ?,
         bot_scan_count = bot_scan_count + ?,
         first_scan_at = coalesce(first_scan_at, ?),
         last_scan_at = case when ? is null then last_scan_at else max(coalesce(last_scan_at, ''), ?) end
       where id = ?`,
    );
    const addToTotal = sqlite.prepare(
      `insert into item_scan_totals (item_id, account_id, scans) values (?, ?, ?)
       on conflict (item_id) do update set scans = scans + excluded.scans`,
    );
    const upsertAccountBucket = sqlite.prepare(
      `insert into account_buckets (account_id, bucket, scans, unique_scans, bot_scans) values (?, ?, ?, ?, ?)
       on conflict (account_id, bucket) do update set scans = scans + excluded.scans,
         unique_scans = unique_scans + excluded.unique_scans, bot_scans = bot_scans + excluded.bot_scans`,
    );
    const upsertAccountDim = sqlite.prepare(
      `insert into account_dims_daily (account_id, day, dim, value, scans) values (?, ?, ?, ?, ?)
       on conflict (account_id, day, dim, value) do update set scans = scans + excluded.scans`,
    );
    const upsertAccountQuarterDim = sqlite.prepare(
      `insert into account_dims_quarter (account_id, bucket, dim, value, scans) values (?, ?, ?, ?, ?)
       on conflict (account_id, bucket, dim, value) do update set scans = scans + excluded.scans`,
    );
    // Running totals: the day's row grows by the day's scans, or, without a row yet, starts
    // from the last total before it. Later rows grow too, which only happens when scans arrive
    // out of order: the latest day written per code is remembered, so the usual batch pays
    // one statement per code and day.
    const addToDay = sqlite.prepare(
      'update item_running_totals set scans = scans + ?, unique_scans = unique_scans + ? where item_id = ? and day = ?',
    );
    const startDay = sqlite.prepare(
      `insert into item_running_totals (item_id, day, scans, unique_scans)
       select @item, @day, coalesce(max(scans), 0) + @scans, coalesce(max(unique_scans), 0) + @uniques from (
         select scans, unique_scans from item_running_totals where item_id = @item and day < @day order by day desc limit 1)`,
    );
    const addToLaterDays = sqlite.prepare(
      'update item_running_totals set scans = scans + ?, unique_scans = unique_scans + ? where item_id = ? and day > ?',
    );
    this.writeBatch = sqlite.transaction((scans: ScanEvent[]) => {
      const candidates = firstVisitsInBatch(scans);
      const isNew = scans.map((s, i) => {
        insertScan.run(
          s.itemId,
          s.scannedAt,
          s.isBot ? 1 : 0,
          s.device,
          s.os,
          s.browser,
          s.country,
          s.referrer,
          s.visitorHash,
          s.outcome ?? 'redirect',
          s.ruleId ?? null,
          s.variant ?? null,
          s.destination ?? null,
        );
        return candidates[i] === true && insertVisitor.run(s.itemId, scanDay(s), s.visitorHash).changes === 1;
      });
      const deltas = sumBatch(scans, isNew);
      for (const b of deltas.buckets) upsertBucket.run(b.itemId, b.bucket, b.scans, b.uniqueScans, b.botScans);
      for (const d of deltas.dims) upsertDim.run(d.itemId, d.day, d.dim, d.value, d.scans);
      for (const d of deltas.quarterDims) upsertQuarterDim.run(d.itemId, d.bucket, d.dim, d.value, d.scans);
      for (const i of deltas.items) {
        updateItem.run(i.scans, i.uniqueScans, i.botScans, i.first, i.last, i.last, i.itemId);
        if (i.scans > 0) addToTotal.run(i.itemId, i.accountId, i.scans);
      }
      for (const d of deltas.itemDays) {
        if (addToDay.run(d.scans, d.uniqueScans, d.itemId, d.day).changes === 0) {
          startDay.run({ item: d.itemId, day: d.day, scans: d.scans, uniques: d.uniqueScans });
        }
        const latest = this.latestDay.get(d.itemId);
        if (latest === undefined || d.day < latest) addToLaterDays.run(d.scans, d.uniqueScans, d.itemId, d.day);
        if (latest === undefined || d.day > latest) this.latestDay.set(d.itemId, d.day);
      }
      for (const b of deltas.accountBuckets) upsertAccountBucket.run(b.accountId, b.bucket, b.scans, b.uniqueScans, b.botScans);
      for (const d of deltas.accountDims) upsertAccountDim.run(d.accountId, d.day, d.dim, d.value, d.scans);
      for (const d of deltas.accountQuarterDims) upsertAccountQuarterDim.run(d.accountId, d.bucket, d.dim, d.value, d.scans);
    });
  }

  record(scan: ScanEvent): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ scan, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      const scans = batch.map((p) => p.scan);
      const started = this.observer === null ? 0 : performance.now();
      try {
        this.writeBatch(scans);
        this.observer?.written(scans, (performance.now() - started) / 1000);
        for (const p of batch) p.resolve();
      } catch (err) {
        this.latestDay = new LruCache(50_000);
        this.observer?.failed(scans, (performance.now() - started) / 1000);
        for (const p of batch) p.reject(err);
      }
    }
  }

  /** Writes whatever is queued; called on shutdown. */
  async drain(): Promise<void> {
    this.flush();
  }
}
