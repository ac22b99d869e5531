// A bounded, approximately-LRU cache on top of Map's insertion order, bounded by the total weight
// of its values: each weighs 1 unless a weigher says otherwise (the short links' cache weighs its
// targets in bytes, the images' cache their buffers). An insert past the bound evicts the oldest
// keys until it fits. A hit moves its key to the end only once half the bound's weight has been
// inserted since the key was last put there: moving on every hit (delete + set) cost most of a
// microsecond per redirect for the user-agent cache, and a key read that often stays far from
// eviction anyway.
interface Entry<V> {
  value: V;
  weight: number;
  /** The weight inserted in all when the key was last put at the end. */
  stamp: number;
}

export interface LruOptions<K, V> {
  /** An entry's weight, a positive number (default 1: the bound is a count of entries). */
  weigh?: (value: V, key: K) => number;
  /**
   * Values heavier than this are not kept (the bound by default): one large value would
   * otherwise flush many small ones to be looked up again.
   */
  maxEntryWeight?: number;
}

export class LruCache<K, V> {
  private readonly entries = new Map<K, Entry<V>>();
  private readonly weigh: ((value: V, key: K) => number) | null;
  private readonly maxEntryWeight: number;
  private inserted = 0;
  private held = 0;

  /** `maxWeight`: the bound on the values' total weight (with no weigher, on their number). */
  constructor(
    private readonly maxWeight: number,
    options: LruOptions<K, V> = {},
  ) {
    if (!Number.isFinite(maxWeight) || maxWeight < 1) throw new RangeError('maxWeight must be a number of at least 1');
    if (options.weigh === undefined && !Number.isInteger(maxWeight)) throw new RangeError('a count of entries must be an integer');
    this.weigh = options.weigh ?? null;
    this.maxEntryWeight = Math.min(options.maxEntryWeight ?? maxWeight, maxWeight);
  }

  /** Entries held. */
  get size(): number {
    return this.entries.size;
  }

  /** The values' total weight (with no weigher, their number). */
  get weight(): number {
    return this.held;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    // Less than half the bound inserted since it was put at the end: at least half the cache
    // is older, so it cannot be next to go.
    if (this.inserted - entry.stamp >= this.maxWeight / 2) {
      this.entries.delete(key);
      entry.stamp = this.inserted;
      this.entries.set(key, entry);
    }
    return entry.value;
  }

  /** Keeps the value unless it weighs more than maxEntryWeight (then the key is dropped). */
  set(key: K, value: V): void {
    this.delete(key);
    const weight = this.weigh === null ? 1 : this.weigh(value, key);
    if (!(weight <= this.maxEntryWeight)) return;
    while (this.held + weight > this.maxWeight) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
    this.inserted += weight;
    this.held += weight;
    this.entries.set(key, { value, weight, stamp: this.inserted });
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.held -= entry.weight;
  }

  clear(): void {
    this.entries.clear();
    this.held = 0;
  }
}
