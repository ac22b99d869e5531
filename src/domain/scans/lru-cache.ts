// A small bounded, approximately-LRU cache on top of Map's insertion order. An insert
// past the bound evicts the oldest key. A hit moves its key to the end only once the key
// has aged past half the bound: moving on every hit (delete + set) cost most of a
// microsecond per redirect for the user-agent cache, and a key read that often stays
// far from eviction anyway. Enough for memoising hot-path parsers whose inputs repeat
// (user agents) without letting memory grow with them.
interface Entry<V> {
  value: V;
  /** The insertion count when the key was last put at the end. */
  stamp: number;
}

export class LruCache<K, V> {
  private readonly entries = new Map<K, Entry<V>>();
  private inserted = 0;

  constructor(private readonly maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError('maxEntries must be a positive integer');
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    // Fewer than maxEntries/2 inserts since it was put at the end: at least half the cache
    // is older, so it cannot be next to go.
    if (this.inserted - entry.stamp >= this.maxEntries / 2) {
      this.entries.delete(key);
      entry.stamp = this.inserted;
      this.entries.set(key, entry);
    }
    return entry.value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, stamp: ++this.inserted });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }
}
