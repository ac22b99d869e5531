// What forgetting an item's scans of one UTC day writes, planned from what the day holds now.
// A day whose raw scans are all in the log is rebuilt: its roll-ups are recomputed from the scans
// that stay, and every total above them (account roll-ups, the item's counters, running totals)
// moves by the difference, so unique scans stay exact (a visitor's next scan of the day becomes
// their first when the first is forgotten). A day past the account's retention has only its
// quarter-hour counts left: the quarter hours wholly inside the range are taken out.
// Plain statements with `?` placeholders, run by forget-scans.ts in one transaction per dialect.
import { firstVisitsInBatch, isBlocked, scanDay, sumBatch } from '../../domain/scans/scan-batch.ts';
import { BUCKETS_PER_DAY, bucketStart } from '../../domain/stats/scan-buckets.ts';
import { LOGGED_SCAN_COLUMNS, type LoggedScan } from './logged-scan.ts';

export interface Statement {
  sql: string;
  params: (string | number | boolean | null)[];
}

export interface ForgetDay {
  itemId: string;
  accountId: string;
  /** The UTC day, 'YYYY-MM-DD'. */
  day: string;
  /** The range to forget, ISO times: [from, to). */
  from: string;
  to: string;
  /** Whether the day's raw scans are all in the log (the account's retention has not reached it). */
  raw: boolean;
  /** The roll-ups' cursor: scans past it were never counted, and are left to the aggregator. */
  position: number;
  /** Whether the day's visitors are still kept (today and yesterday): they are rebuilt too. */
  visitorsKept: boolean;
}

export interface DayRows {
  buckets: { bucket: number | string; scans: number | string; unique_scans: number | string; bot_scans: number | string }[];
  dims: { dim: string; value: string; scans: number | string }[];
  quarterDims: { bucket: number | string; dim: string; value: string; scans: number | string }[];
  /** The day's applied and unapplied raw scans, in id order (raw days only). */
  scans: LoggedScan[];
}

const n = Number;

function firstBucket(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / (15 * 60_000);
}

/** The reads a day's plan needs, in the order DayRows names them. */
export function dayReads(d: ForgetDay, bool: (b: boolean) => number | boolean): Record<keyof DayRows, Statement> {
  const b0 = firstBucket(d.day);
  const end = new Date(Date.parse(`${d.day}T00:00:00Z`) + 86_400_000).toISOString();
  return {
    buckets: {
      sql: 'select bucket, scans, unique_scans, bot_scans from scan_buckets where item_id = ? and bucket >= ? and bucket < ?',
      params: [d.itemId, b0, b0 + BUCKETS_PER_DAY],
    },
    dims: { sql: 'select dim, value, scans from scan_dims_daily where item_id = ? and day = ?', params: [d.itemId, d.day] },
    quarterDims: {
      sql: 'select bucket, dim, value, scans from scan_dims_quarter where item_id = ? and bucket >= ? and bucket < ?',
      params: [d.itemId, b0, b0 + BUCKETS_PER_DAY],
    },
    scans: d.raw
      ? {
          // Both values of is_bot, so the (item_id, is_bot, scanned_at) index serves the day as two ranges.
          sql: `select ${LOGGED_SCAN_COLUMNS} from scans s join qr_items q on q.id = s.item_id
                where s.item_id = ? and s.is_bot in (?, ?) and s.scanned_at >= ? and s.scanned_at < ? order by s.id`,
          params: [d.itemId, bool(false), bool(true), `${d.day}T00:00:00.000Z`, end],
        }
      : { sql: 'select 1 as none where 1 = 0', params: [] },
  };
}

type Counts = [number, number, number];

/** The statements that forget the day's scans in range and correct every roll-up; and how many scans went. */
export function planForgetDay(d: ForgetDay, rows: DayRows): { statements: Statement[]; forgotten: number; humansLeft: boolean } {
  return d.raw ? rebuildDay(d, rows) : dropWholeBuckets(d, rows);
}

function rebuildDay(d: ForgetDay, rows: DayRows) {
  const applied = rows.scans.filter((s) => s.id <= d.position);
  const forgottenScans = applied.filter((s) => s.scannedAt >= d.from && s.scannedAt < d.to);
  const forgotten = new Set(forgottenScans.map((s) => s.id));
  const kept = applied.filter((s) => !forgotten.has(s.id));
  const firsts = firstVisitsInBatch(kept);
  const fresh = sumBatch(kept, firsts);
  const out: Statement[] = [];
  if (forgotten.size === 0) return { statements: out, forgotten: 0, humansLeft: kept.some((s) => !s.isBot) };

  const ids = [...forgotten];
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    out.push({ sql: `delete from scans where id in (${chunk.map(() => '?').join(', ')})`, params: chunk });
  }

  // The item's own roll-ups of the day: replaced whole.
  const b0 = firstBucket(d.day);
  out.push({
    sql: 'delete from scan_buckets where item_id = ? and bucket >= ? and bucket < ?',
    params: [d.itemId, b0, b0 + BUCKETS_PER_DAY],
  });
  for (const b of fresh.buckets)
    out.push({
      sql: 'insert into scan_buckets (item_id, bucket, scans, unique_scans, bot_scans) values (?, ?, ?, ?, ?)',
      params: [d.itemId, b.bucket, b.scans, b.uniqueScans, b.botScans],
    });
  out.push({ sql: 'delete from scan_dims_daily where item_id = ? and day = ?', params: [d.itemId, d.day] });
  for (const x of fresh.dims)
    out.push({
      sql: 'insert into scan_dims_daily (item_id, day, dim, value, scans) values (?, ?, ?, ?, ?)',
      params: [d.itemId, x.day, x.dim, x.value, x.scans],
    });
  out.push({
    sql: 'delete from scan_dims_quarter where item_id = ? and bucket >= ? and bucket < ?',
    params: [d.itemId, b0, b0 + BUCKETS_PER_DAY],
  });
  for (const x of fresh.quarterDims)
    out.push({
      sql: 'insert into scan_dims_quarter (item_id, bucket, dim, value, scans) values (?, ?, ?, ?, ?)',
      params: [d.itemId, x.bucket, x.dim, x.value, x.scans],
    });
  // Only the visitors whose first scan went change: the statements grow with what is forgotten,
  // not with the day.
  if (d.visitorsKept) out.push(...visitorChanges(d.itemId, firstScans(applied, firstVisitsInBatch(applied)), firstScans(kept, firsts)));

  // Everything summed over the item or the account moves by the difference.
  const oldBuckets = new Map<number, Counts>(rows.buckets.map((b) => [n(b.bucket), [n(b.scans), n(b.unique_scans), n(b.bot_scans)]]));
  const newBuckets = new Map<number, Counts>(fresh.buckets.map((b) => [b.bucket, [b.scans, b.uniqueScans, b.botScans]]));
  out.push(...accountBucketDiffs(d.accountId, oldBuckets, newBuckets));
  const oldDims = new Map(rows.dims.map((x) => [`${x.dim}\u0000${x.value}`, n(x.scans)]));
  const newDims = new Map(fresh.dims.map((x) => [`${x.dim}\u0000${x.value}`, x.scans]));
  out.push(...accountDimDiffs('account_dims_daily', 'day', d.accountId, d.day, oldDims, newDims));
  const quarterKey = (bucket: number, dim: string, value: string) => `${bucket}\u0000${dim}\u0000${value}`;
  const oldQuarter = new Map(rows.quarterDims.map((x) => [quarterKey(n(x.bucket), x.dim, x.value), n(x.scans)]));
  const newQuarter = new Map(fresh.quarterDims.map((x) => [quarterKey(x.bucket, x.dim, x.value), x.scans]));
  for (const [key, diff] of diffs(oldQuarter, newQuarter)) {
    const [bucket, dim, value] = key.split('\u0000') as [string, string, string];
    if (!ACCOUNT_DIMS.has(dim)) continue;
    out.push(addTo('account_dims_quarter', ['account_id', 'bucket', 'dim', 'value'], [d.accountId, n(bucket), dim, value], diff));
  }
  const before = sum(oldBuckets);
  const after = sum(newBuckets);
  const delta: Counts = [after[0] - before[0], after[1] - before[1], after[2] - before[2]];
  out.push(
    ...itemTotals(
      d,
      delta,
      kept.some((s) => !s.isBot),
    ),
  );
  return { statements: out, forgotten: forgotten.size, humansLeft: kept.some((s) => !s.isBot && !isBlocked(s)) };
}

/** Each visitor's first scan of the day: 'day\0hash' → scan id. */
function firstScans(scans: readonly LoggedScan[], firsts: readonly boolean[]): Map<string, { day: string; hash: string; id: number }> {
  const out = new Map<string, { day: string; hash: string; id: number }>();
  scans.forEach((s, i) => {
    if (firsts[i] === true) out.set(`${scanDay(s)}\u0000${s.visitorHash}`, { day: scanDay(s), hash: s.visitorHash, id: s.id });
  });
  return out;
}

function visitorChanges(itemId: string, before: ReturnType<typeof firstScans>, after: ReturnType<typeof firstScans>): Statement[] {
  const out: Statement[] = [];
  const where = 'where item_id = ? and day = ? and visitor_hash = ?';
  for (const [key, was] of before) {
    const now = after.get(key);
    if (now === undefined) out.push({ sql: `delete from scan_visitors ${where}`, params: [itemId, was.day, was.hash] });
    else if (now.id !== was.id)
      out.push({ sql: `update scan_visitors set first_scan_id = ? ${where}`, params: [now.id, itemId, was.day, was.hash] });
  }
  for (const [key, v] of after)
    if (!before.has(key))
      out.push({
        sql: 'insert into scan_visitors (item_id, day, visitor_hash, first_scan_id) values (?, ?, ?, ?) on conflict do nothing',
        params: [itemId, v.day, v.hash, v.id],
      });
  return out;
}

/** A day past retention: only whole quarter hours inside the range can be told apart. */
function dropWholeBuckets(d: ForgetDay, rows: DayRows) {
  const out: Statement[] = [];
  const gone = new Map<number, Counts>();
  for (const b of rows.buckets) {
    const bucket = n(b.bucket);
    const start = new Date(bucketStart(bucket)).toISOString();
    const end = new Date(bucketStart(bucket + 1)).toISOString();
    if (start < d.from || end > d.to) continue;
    gone.set(bucket, [n(b.scans), n(b.unique_scans), n(b.bot_scans)]);
    out.push({ sql: 'delete from scan_buckets where item_id = ? and bucket = ?', params: [d.itemId, bucket] });
  }
  if (gone.size === 0) return { statements: out, forgotten: 0, humansLeft: true };
  out.push(...accountBucketDiffs(d.accountId, gone, new Map()));
  const total = sum(gone);
  const left = rows.buckets.length > gone.size;
  out.push(...itemTotals(d, [-total[0], -total[1], -total[2]], left));
  return { statements: out, forgotten: total[0] + total[2], humansLeft: left };
}

const ACCOUNT_DIMS = new Set(['device', 'os', 'browser', 'country', 'referrer']);

function sum(m: Map<number, Counts>): Counts {
  const t: Counts = [0, 0, 0];
  for (const c of m.values()) for (let i = 0; i < 3; i++) t[i] = (t[i] as number) + (c[i] as number);
  return t;
}

function diffs(before: Map<string, number>, after: Map<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [k, v] of before) out.set(k, (after.get(k) ?? 0) - v);
  for (const [k, v] of after) if (!before.has(k)) out.set(k, v);
  for (const [k, v] of out) if (v === 0) out.delete(k);
  return out;
}

function addTo(table: string, keys: string[], keyValues: (string | number)[], ...deltas: number[]): Statement {
  const counters = table.endsWith('buckets') ? ['scans', 'unique_scans', 'bot_scans'] : ['scans'];
  return {
    sql: `update ${table} set ${counters.map((c) => `${c} = ${c} + ?`).join(', ')} where ${keys.map((k) => `${k} = ?`).join(' and ')}`,
    params: [...deltas, ...keyValues],
  };
}

function accountBucketDiffs(accountId: string, before: Map<number, Counts>, after: Map<number, Counts>): Statement[] {
  const out: Statement[] = [];
  const buckets = new Set([...before.keys(), ...after.keys()]);
  for (const bucket of buckets) {
    const a = before.get(bucket) ?? [0, 0, 0];
    const b = after.get(bucket) ?? [0, 0, 0];
    if (a[0] === b[0] && a[1] === b[1] && a[2] === b[2]) continue;
    out.push(addTo('account_buckets', ['account_id', 'bucket'], [accountId, bucket], b[0] - a[0], b[1] - a[1], b[2] - a[2]));
  }
  return out;
}

function accountDimDiffs(
  table: string,
  at: string,
  accountId: string,
  atValue: string,
  before: Map<string, number>,
  after: Map<string, number>,
): Statement[] {
  const out: Statement[] = [];
  for (const [key, diff] of diffs(before, after)) {
    const [dim, value] = key.split('\u0000') as [string, string];
    if (!ACCOUNT_DIMS.has(dim)) continue;
    out.push(addTo(table, ['account_id', at, 'dim', 'value'], [accountId, atValue, dim, value], diff));
  }
  return out;
}

/** The item's counters, its total, and its running totals from the day on. */
function itemTotals(d: ForgetDay, delta: Counts, dayKeepsScans: boolean): Statement[] {
  const [scans, uniques, bots] = delta;
  const out: Statement[] = [
    {
      sql: 'update qr_items set scan_count = scan_count + ?, unique_scan_count = unique_scan_count + ?, bot_scan_count = bot_scan_count + ? where id = ?',
      params: [scans, uniques, bots, d.itemId],
    },
    { sql: 'update item_scan_totals set scans = scans + ? where item_id = ?', params: [scans, d.itemId] },
    {
      sql: 'update item_running_totals set scans = scans + ?, unique_scans = unique_scans + ? where item_id = ? and day >= ?',
      params: [scans, uniques, d.itemId, d.day],
    },
  ];
  // A day left without a scan of a person has no running total of its own (as the aggregator writes them).
  if (!dayKeepsScans) out.push({ sql: 'delete from item_running_totals where item_id = ? and day = ?', params: [d.itemId, d.day] });
  return out;
}
