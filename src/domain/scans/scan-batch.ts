// Adding up a batch of scans into counter deltas, so a batch of N scans touches each
// counter row once. Pure: the writers decide which visitors are new, this sums.
// On the redirect hot path (every scan passes here), so it aggregates in nested maps
// keyed by the values themselves instead of building a key string per counter per scan.
import { DIMENSIONS } from '../stats/build-stats.ts';
import { bucketOf, utcDay } from '../stats/scan-buckets.ts';

/** One scan as the writers store it. The raw IP is not here: only its salted hash. */
export interface ScanEvent {
  itemId: string;
  /** The item's account: the account roll-ups are summed from the same batch. */
  accountId: string;
  scannedAt: string; // ISO, UTC
  /** scannedAt as epoch milliseconds and as its UTC day, carried so a batch need not re-derive them. */
  ms?: number;
  day?: string;
  isBot: boolean;
  device: string;
  os: string | null;
  browser: string | null;
  country: string | null;
  referrer: string | null;
  visitorHash: string;
  /** What became of it (scan-tracker.ts); absent: a redirect. Only redirect and landing are counted. */
  outcome?: string;
  /** Present (null: no rule matched) only for a code with rules. */
  ruleId?: string | null;
  variant?: number | null;
  destination?: string | null;
}

/**
 * The breakdowns kept per item: the visitor's (account roll-ups keep only these, DIMENSIONS),
 * then the rules' attribution, a split variant's unique scans, and refused scans by outcome.
 * A code without rules writes none of the rule rows; only a refused scan writes `blocked`.
 */
export const ITEM_DIMENSIONS = [...DIMENSIONS, 'rule', 'variant', 'destination', 'variantUnique', 'blocked'] as const;
const RULE = DIMENSIONS.length;
const VARIANT = RULE + 1;
const DESTINATION = RULE + 2;
const VARIANT_UNIQUE = RULE + 3;
const BLOCKED = RULE + 4;

/** Refused by the code's lifecycle or password: stored with its outcome, never counted as a scan. */
export function isBlocked(s: ScanEvent): boolean {
  return s.outcome !== undefined && s.outcome !== 'redirect' && s.outcome !== 'landing';
}

/** A split variant's key in the breakdowns: the rule's id and the variant's place. */
export function variantKey(ruleId: string | null | undefined, variant: number | null | undefined): string | null {
  return variant === null || variant === undefined ? null : `${ruleId ?? 'none'}#${variant}`;
}

export interface ItemDelta {
  itemId: string;
  accountId: string;
  scans: number;
  uniqueScans: number;
  botScans: number;
  /** Earliest and latest human scan of the batch (null: bots only), for first/last scan times. */
  first: string | null;
  last: string | null;
}

export interface BucketDelta {
  itemId: string;
  bucket: number;
  scans: number;
  uniqueScans: number;
  botScans: number;
}

export interface DimDelta {
  itemId: string;
  day: string;
  dim: string;
  value: string;
  scans: number;
}

/** An item's human scans on one UTC day of the batch: what its running totals from that day on grow by. */
export interface ItemDayDelta {
  itemId: string;
  day: string;
  scans: number;
  uniqueScans: number;
}

export interface AccountBucketDelta {
  accountId: string;
  bucket: number;
  scans: number;
  uniqueScans: number;
  botScans: number;
}

export interface AccountDimDelta {
  accountId: string;
  day: string;
  dim: string;
  value: string;
  scans: number;
}

/**
 * Human scans per quarter hour, dimension and value. The breakdowns are summed per UTC day;
 * these cut the days at a range's ends exactly (a local midnight is a quarter hour, not a
 * UTC midnight).
 */
export interface QuarterDimDelta {
  itemId: string;
  bucket: number;
  dim: string;
  value: string;
  scans: number;
}

export interface AccountQuarterDimDelta {
  accountId: string;
  bucket: number;
  dim: string;
  value: string;
  scans: number;
}

export interface BatchDeltas {
  items: ItemDelta[];
  buckets: BucketDelta[];
  dims: DimDelta[];
  quarterDims: QuarterDimDelta[];
  itemDays: ItemDayDelta[];
  accountBuckets: AccountBucketDelta[];
  accountDims: AccountDimDelta[];
  accountQuarterDims: AccountQuarterDimDelta[];
}

/** The value of DIMENSIONS[dim]. Unknown values are kept as "unknown" (no referrer: "direct") so breakdowns add up to the scans in range. */
function dimensionValue(s: ScanEvent, dim: number): string {
  switch (dim) {
    case 0:
      return s.device;
    case 1:
      return s.os ?? 'unknown';
    case 2:
      return s.browser ?? 'unknown';
    case 3:
      return s.country ?? 'unknown';
    default:
      return s.referrer ?? 'direct';
  }
}

export function scanDay(s: ScanEvent): string {
  return s.day ?? utcDay(s.ms ?? Date.parse(s.scannedAt));
}

/**
 * A value→count map per dimension, made when the dimension gets its first value: a scan of a
 * code without rules fills five of the ten, and in a long tail most buckets hold one scan.
 */
type DimCounts = (Map<string, number> | undefined)[];

function newDimCounts(): DimCounts {
  return new Array<Map<string, number> | undefined>(ITEM_DIMENSIONS.length);
}

function bump(counts: DimCounts, d: number, value: string): void {
  const m = counts[d];
  if (m === undefined) counts[d] = new Map<string, number>().set(value, 1);
  else m.set(value, (m.get(value) ?? 0) + 1);
}

function addCounts(into: DimCounts, from: DimCounts): void {
  for (let d = 0; d < from.length; d++) {
    const counts = from[d];
    if (counts === undefined) continue;
    const target = into[d];
    if (target === undefined) into[d] = new Map(counts);
    else for (const [value, scans] of counts) target.set(value, (target.get(value) ?? 0) + scans);
  }
}

/** Calls `f` for each dimension's each value, up to dimension `limit` (exclusive). */
function eachCount(counts: DimCounts, limit: number, f: (d: number, value: string, scans: number) => void): void {
  for (let d = 0; d < limit; d++) {
    const m = counts[d];
    if (m !== undefined) for (const [value, scans] of m) f(d, value, scans);
  }
}

interface BucketSums {
  delta: BucketDelta;
  /** The bucket's UTC day (all scans of a quarter hour share one). */
  day: string;
  /** Human scans by dimension and value; null while the bucket has only bots. */
  dims: DimCounts | null;
}

interface ItemSums {
  accountId: string;
  delta: ItemDelta;
  buckets: Map<number, BucketSums>;
}

/** `isNew[i]` says whether scan i is its visitor's first human scan of the item that UTC day. */
export function sumBatch(scans: readonly ScanEvent[], isNew: readonly boolean[]): BatchDeltas {
  const items = new Map<string, ItemSums>();
  for (let i = 0; i < scans.length; i++) {
    const s = scans[i] as ScanEvent;
    const blocked = isBlocked(s);
    const human = s.isBot || blocked ? 0 : 1;
    const unique = human === 1 && isNew[i] === true ? 1 : 0;
    let sums = items.get(s.itemId);
    if (sums === undefined) {
      sums = {
        accountId: s.accountId,
        delta: { itemId: s.itemId, accountId: s.accountId, scans: 0, uniqueScans: 0, botScans: 0, first: null, last: null },
        buckets: new Map(),
      };
      items.set(s.itemId, sums);
    }
    const item = sums.delta;
    const bot = s.isBot && !blocked ? 1 : 0;
    item.scans += human;
    item.uniqueScans += unique;
    item.botScans += bot;
    if (human === 1) {
      if (item.first === null || s.scannedAt < item.first) item.first = s.scannedAt;
      if (item.last === null || s.scannedAt > item.last) item.last = s.scannedAt;
    }

    const bucket = bucketOf(s.ms ?? Date.parse(s.scannedAt));
    let b = sums.buckets.get(bucket);
    if (b === undefined) {
      b = { delta: { itemId: s.itemId, bucket, scans: 0, uniqueScans: 0, botScans: 0 }, day: scanDay(s), dims: null };
      sums.buckets.set(bucket, b);
    }
    b.delta.scans += human;
    b.delta.uniqueScans += unique;
    b.delta.botScans += bot;

    if (blocked) {
      if (!s.isBot) bump((b.dims ??= newDimCounts()), BLOCKED, s.outcome as string);
      continue;
    }
    if (human === 0) continue; // breakdowns are of human scans only
    b.dims ??= newDimCounts();
    for (let d = 0; d < DIMENSIONS.length; d++) bump(b.dims, d, dimensionValue(s, d));
    if (s.ruleId !== undefined) {
      bump(b.dims, RULE, s.ruleId ?? 'none');
      bump(b.dims, DESTINATION, s.destination ?? 'unknown');
      const key = variantKey(s.ruleId, s.variant);
      if (key !== null) {
        bump(b.dims, VARIANT, key);
        if (unique === 1) bump(b.dims, VARIANT_UNIQUE, key);
      }
    }
  }
  return flatten(items);
}

interface DaySums {
  scans: number;
  uniqueScans: number;
  /** The first bucket's own counts until a second bucket of the day is added (copied then). */
  dims: DimCounts;
  shared: boolean;
}

// Per-scan work is one map update per dimension, in the scan's quarter hour; the UTC days and
// the account sums are merged from those (per distinct row, not per scan): most batches hold
// one item and one quarter hour, so this costs a copy, not a second pass over the scans.
function flatten(items: Map<string, ItemSums>): BatchDeltas {
  const out: BatchDeltas = {
    items: [],
    buckets: [],
    dims: [],
    quarterDims: [],
    itemDays: [],
    accountBuckets: [],
    accountDims: [],
    accountQuarterDims: [],
  };
  const accountBuckets = new Map<string, Map<number, { delta: AccountBucketDelta; dims: DimCounts | null }>>();
  const accountDays = new Map<string, Map<string, DimCounts>>();
  for (const [itemId, sums] of items) {
    out.items.push(sums.delta);
    let aBuckets = accountBuckets.get(sums.accountId);
    if (aBuckets === undefined) {
      aBuckets = new Map();
      accountBuckets.set(sums.accountId, aBuckets);
    }
    const days = new Map<string, DaySums>();
    for (const { delta: b, day, dims } of sums.buckets.values()) {
      out.buckets.push(b);
      let a = aBuckets.get(b.bucket);
      if (a === undefined) {
        a = { delta: { accountId: sums.accountId, bucket: b.bucket, scans: 0, uniqueScans: 0, botScans: 0 }, dims: null };
        aBuckets.set(b.bucket, a);
      }
      a.delta.scans += b.scans;
      a.delta.uniqueScans += b.uniqueScans;
      a.delta.botScans += b.botScans;
      if (dims === null) continue;
      eachCount(dims, ITEM_DIMENSIONS.length, (d, value, scans) =>
        out.quarterDims.push({ itemId, bucket: b.bucket, dim: ITEM_DIMENSIONS[d] as string, value, scans }),
      );
      addCounts((a.dims ??= newDimCounts()), dims);
      const daySums = days.get(day);
      if (daySums === undefined) {
        // A day of one bucket (the common case) sums to that bucket: no copy.
        days.set(day, { scans: b.scans, uniqueScans: b.uniqueScans, dims, shared: true });
        continue;
      }
      if (daySums.shared) {
        const own = newDimCounts();
        addCounts(own, daySums.dims);
        daySums.dims = own;
        daySums.shared = false;
      }
      daySums.scans += b.scans;
      daySums.uniqueScans += b.uniqueScans;
      addCounts(daySums.dims, dims);
    }
    let aDays = accountDays.get(sums.accountId);
    if (aDays === undefined) {
      aDays = new Map();
      accountDays.set(sums.accountId, aDays);
    }
    for (const [day, daySums] of days) {
      out.itemDays.push({ itemId, day, scans: daySums.scans, uniqueScans: daySums.uniqueScans });
      eachCount(daySums.dims, ITEM_DIMENSIONS.length, (d, value, scans) =>
        out.dims.push({ itemId, day, dim: ITEM_DIMENSIONS[d] as string, value, scans }),
      );
      // The item's rows are out, so its counts may become the account's day (added to after).
      const aDims = aDays.get(day);
      if (aDims === undefined) aDays.set(day, daySums.dims);
      else addCounts(aDims, daySums.dims);
    }
  }
  for (const [accountId, buckets] of accountBuckets) {
    for (const { delta, dims } of buckets.values()) {
      out.accountBuckets.push(delta);
      // The account roll-ups keep the visitor's breakdowns only.
      if (dims !== null)
        eachCount(dims, DIMENSIONS.length, (d, value, scans) =>
          out.accountQuarterDims.push({ accountId, bucket: delta.bucket, dim: DIMENSIONS[d] as string, value, scans }),
        );
    }
  }
  for (const [accountId, days] of accountDays) {
    for (const [day, dims] of days) {
      eachCount(dims, DIMENSIONS.length, (d, value, scans) =>
        out.accountDims.push({ accountId, day, dim: DIMENSIONS[d] as string, value, scans }),
      );
    }
  }
  return out;
}

/**
 * Which scans may be a visitor's first of the item that UTC day: human scans whose
 * (item, day, visitor) has not already appeared earlier in the same batch. Only these
 * need asking the database; a repeat within the batch is never new.
 */
export function firstVisitsInBatch(scans: readonly ScanEvent[]): boolean[] {
  const seen = new Map<string, Map<string, Set<string>>>();
  return scans.map((s) => {
    if (s.isBot || isBlocked(s)) return false;
    let days = seen.get(s.itemId);
    if (days === undefined) {
      days = new Map();
      seen.set(s.itemId, days);
    }
    const day = scanDay(s);
    let hashes = days.get(day);
    if (hashes === undefined) {
      hashes = new Set();
      days.set(day, hashes);
    }
    if (hashes.has(s.visitorHash)) return false;
    hashes.add(s.visitorHash);
    return true;
  });
}
