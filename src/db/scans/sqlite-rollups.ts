// The roll-ups on SQLite, applied from the scan log: one slice is one IMMEDIATE transaction that
// reads the scans past the roll-ups' cursor, decides which visitors are new, adds the summed
// deltas to every roll-up and moves the cursor, so a scan is counted once whatever stops when.
import type SQLite from 'better-sqlite3';
import { firstVisitsInBatch, scanDay, sumBatch } from '../../domain/scans/scan-batch.ts';
import { LOGGED_SCAN_COLUMNS, type LoggedScan, type LoggedScanRow, toLoggedScan } from './logged-scan.ts';

export interface AppliedSlice {
  /** Scans applied (0: the cursor was at the log's end). */
  applied: number;
  /** The roll-ups' cursor after the slice. */
  position: number;
}

export class SqliteRollups {
  private readonly applyTx: (limit: number, handed: readonly LoggedScan[]) => AppliedSlice;
  private readonly readPosition: () => number;
  private readonly readEnd: () => number;

  constructor(sqlite: SQLite.Database) {
    const position = sqlite.prepare<[], { position: number }>(`select position from log_cursors where name = 'rollups'`);
    const end = sqlite.prepare<[], { id: number | null }>('select max(id) as id from scans');
    const readScans = sqlite.prepare<[number, number], LoggedScanRow>(
      `select ${LOGGED_SCAN_COLUMNS} from scans s join qr_items q on q.id = s.item_id where s.id > ? order by s.id limit ?`,
    );
    const countRange = sqlite.prepare<[number, number], { n: number }>('select count(*) as n from scans where id > ? and id <= ?');
    const moveCursor = sqlite.prepare<[number]>(`update log_cursors set position = ? where name = 'rollups'`);
    const insertVisitor = sqlite.prepare(
      'insert or ignore into scan_visitors (item_id, day, visitor_hash, first_scan_id) values (?, ?, ?, ?)',
    );
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
         first_scan_at = case when ? is null then first_scan_at else min(coalesce(first_scan_at, ?), ?) end,
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
    // from the last total before it; later days' rows grow too (scans of a day applied after the
    // next day's, around midnight). Off the redirect's path, so no cache of the latest day.
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
    this.readPosition = () => Number(position.get()?.position ?? 0);
    this.readEnd = () => Number(end.get()?.id ?? 0);
    const apply = (limit: number, handed: readonly LoggedScan[]): AppliedSlice => {
      const from = this.readPosition();
      const kept = fromMemory(handed, from, limit);
      // Only while the log still holds every one of them (a forget may have taken scans past the cursor out).
      const whole = kept !== null && countRange.get(from, from + kept.length)?.n === kept.length;
      const scans = whole ? kept : readScans.all(from, limit).map(toLoggedScan);
      if (scans.length === 0) {
        // Scans of items that no longer exist (never: items are soft-deleted) would stall the cursor.
        const last = this.readEnd();
        if (last > from) moveCursor.run(last);
        return { applied: 0, position: Math.max(from, last) };
      }
      const candidates = firstVisitsInBatch(scans);
      const isNew = scans.map(
        (s, i) => candidates[i] === true && insertVisitor.run(s.itemId, scanDay(s), s.visitorHash, s.id).changes === 1,
      );
      const deltas = sumBatch(scans, isNew);
      for (const b of deltas.buckets) upsertBucket.run(b.itemId, b.bucket, b.scans, b.uniqueScans, b.botScans);
      for (const d of deltas.dims) upsertDim.run(d.itemId, d.day, d.dim, d.value, d.scans);
      for (const d of deltas.quarterDims) upsertQuarterDim.run(d.itemId, d.bucket, d.dim, d.value, d.scans);
      for (const i of deltas.items) {
        updateItem.run(i.scans, i.uniqueScans, i.botScans, i.first, i.first, i.first, i.last, i.last, i.itemId);
        if (i.scans > 0) addToTotal.run(i.itemId, i.accountId, i.scans);
      }
      for (const d of deltas.itemDays) {
        if (addToDay.run(d.scans, d.uniqueScans, d.itemId, d.day).changes === 0) {
          startDay.run({ item: d.itemId, day: d.day, scans: d.scans, uniques: d.uniqueScans });
        }
        addToLaterDays.run(d.scans, d.uniqueScans, d.itemId, d.day);
      }
      for (const b of deltas.accountBuckets) upsertAccountBucket.run(b.accountId, b.bucket, b.scans, b.uniqueScans, b.botScans);
      for (const d of deltas.accountDims) upsertAccountDim.run(d.accountId, d.day, d.dim, d.value, d.scans);
      for (const d of deltas.accountQuarterDims) upsertAccountQuarterDim.run(d.accountId, d.bucket, d.dim, d.value, d.scans);
      const last = (scans[scans.length - 1] as LoggedScan).id;
      moveCursor.run(last);
      return { applied: scans.length, position: last };
    };
    this.applyTx = sqlite.transaction(apply).immediate as (limit: number, handed: readonly LoggedScan[]) => AppliedSlice;
  }

  /**
   * Applies up to `limit` scans past the cursor in one transaction. `handed`: scans this process
   * logged, in id order (the writer's committed batches, kept in memory): used where they start
   * right after the cursor, instead of reading the log back (making its rows JavaScript objects
   * was some 60 % of a hot code's slice).
   */
  applySlice(limit: number, handed: readonly LoggedScan[] = []): AppliedSlice {
    return this.applyTx(limit, handed);
  }

  /** The roll-ups' cursor and the log's last id. */
  state(): { position: number; end: number } {
    return { position: this.readPosition(), end: this.readEnd() };
  }
}

/**
 * The handed scans that come next in the log: from the id right after `from`, as long as the ids
 * run on one by one (so no scan of the log is between them), at most `limit`; null when the
 * first of them is not next (the log is read instead).
 */
function fromMemory(handed: readonly LoggedScan[], from: number, limit: number): LoggedScan[] | null {
  let start = 0;
  while (start < handed.length && (handed[start] as LoggedScan).id <= from) start++;
  if (start === handed.length || (handed[start] as LoggedScan).id !== from + 1) return null;
  const out: LoggedScan[] = [];
  for (let i = start; i < handed.length && out.length < limit; i++) {
    const scan = handed[i] as LoggedScan;
    if (scan.id !== from + 1 + out.length) break;
    out.push(scan);
  }
  return out;
}
