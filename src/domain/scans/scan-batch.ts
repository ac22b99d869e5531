// Adding up a batch of scans into counter deltas, so a batch of N scans touches each
// counter row once. Pure: the writers decide which visitors are new, this sums.
import { bucketOf, utcDay } from '../stats/scan-buckets.ts';

/** One scan as the writers store it. The raw IP is not here: only its salted hash. */
export interface ScanEvent {
  itemId: string;
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
}

export interface ItemDelta {
  itemId: string;
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

export interface BatchDeltas {
  items: ItemDelta[];
  buckets: BucketDelta[];
  dims: DimDelta[];
}

/** `isNew[i]` says whether scan i is its visitor's first human scan of the item that UTC day. */
export function sumBatch(scans: readonly ScanEvent[], isNew: readonly boolean[]): BatchDeltas {
  const items = new Map<string, ItemDelta>();
  const buckets = new Map<string, BucketDelta>();
  const dims = new Map<string, DimDelta>();
  scans.forEach((s, i) => {
    const unique = !s.isBot && isNew[i] === true ? 1 : 0;
    const human = s.isBot ? 0 : 1;
    const bot = 1 - human;
    const item = items.get(s.itemId) ?? { itemId: s.itemId, scans: 0, uniqueScans: 0, botScans: 0, first: null, last: null };
    item.scans += human;
    item.uniqueScans += unique;
    item.botScans += bot;
    if (human) {
      if (item.first === null || s.scannedAt < item.first) item.first = s.scannedAt;
      if (item.last === null || s.scannedAt > item.last) item.last = s.scannedAt;
    }
    items.set(s.itemId, item);

    const ms = s.ms ?? Date.parse(s.scannedAt);
    const bucket = bucketOf(ms);
    const bk = `${s.itemId}|${bucket}`;
    const b = buckets.get(bk) ?? { itemId: s.itemId, bucket, scans: 0, uniqueScans: 0, botScans: 0 };
    b.scans += human;
    b.uniqueScans += unique;
    b.botScans += bot;
    buckets.set(bk, b);

    if (s.isBot) return;
    const day = s.day ?? utcDay(ms);
    for (const [dim, value] of dimensionValues(s)) {
      const dk = `${s.itemId}|${day}|${dim}|${value}`;
      const d = dims.get(dk) ?? { itemId: s.itemId, day, dim, value, scans: 0 };
      d.scans += 1;
      dims.set(dk, d);
    }
  });
  return { items: [...items.values()], buckets: [...buckets.values()], dims: [...dims.values()] };
}

/** Unknown values are kept as "unknown" so breakdowns add up to the scans in range. */
function dimensionValues(s: ScanEvent): [string, string][] {
  return [
    ['device', s.device],
    ['os', s.os ?? 'unknown'],
    ['browser', s.browser ?? 'unknown'],
    ['country', s.country ?? 'unknown'],
    ['referrer', s.referrer ?? 'direct'],
  ];
}

/** Human scans of the batch, which are the only ones that can be unique. */
export function visitorKey(s: ScanEvent): { itemId: string; day: string; visitorHash: string } {
  return { itemId: s.itemId, day: s.day ?? utcDay(Date.parse(s.scannedAt)), visitorHash: s.visitorHash };
}
