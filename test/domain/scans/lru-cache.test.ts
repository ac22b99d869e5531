// The bounded cache behind the user agents' memo, the images and the short links: bounded by
// count or by weight, and close enough to least-recently-used that a busy key outlives a stream.
import { describe, expect, it } from 'vitest';
import { LruCache } from '../../../src/domain/scans/lru-cache.ts';

describe('LruCache', () => {
  it('holds at most its count, dropping the oldest first', () => {
    const cache = new LruCache<string, number>(3);
    for (const [i, k] of ['a', 'b', 'c', 'd'].entries()) cache.set(k, i);
    expect(cache.size).toBe(3);
    expect(cache.has('a')).toBe(false);
    expect(cache.get('d')).toBe(3);
    expect(cache.weight).toBe(3);
  });

  it('keeps a key read often while a stream of keys read once passes through', () => {
    const cache = new LruCache<number, number>(100);
    cache.set(-1, -1);
    for (let i = 0; i < 10_000; i++) {
      cache.set(i, i);
      expect(cache.get(-1)).toBe(-1);
    }
    expect(cache.size).toBe(100);
    // Without the reads it goes within one bound's worth of inserts.
    for (let i = 10_000; i < 10_100; i++) cache.set(i, i);
    expect(cache.has(-1)).toBe(false);
  });

  it('bounds the weights, evicting as many old entries as a heavy one needs', () => {
    const cache = new LruCache<string, string>(100, { weigh: (v) => v.length });
    for (let i = 0; i < 10; i++) cache.set(`k${i}`, 'x'.repeat(10));
    expect(cache.weight).toBe(100);
    cache.set('heavy', 'y'.repeat(35));
    expect(cache.weight).toBeLessThanOrEqual(100);
    expect(['k0', 'k1', 'k2', 'k3'].some((k) => cache.has(k))).toBe(false);
    expect(cache.has('k4')).toBe(true);
    expect(cache.get('heavy')).toHaveLength(35);
  });

  it('passes the key to the weigher', () => {
    const cache = new LruCache<string, null>(50, { weigh: (_v, key) => key.length });
    cache.set('abc', null);
    expect(cache.weight).toBe(3);
    expect(cache.get('abc')).toBeNull();
  });

  it('does not keep an entry above maxEntryWeight, nor a weight that is not a number', () => {
    const cache = new LruCache<string, number>(100, { weigh: (v) => v, maxEntryWeight: 20 });
    cache.set('a', 10);
    cache.set('b', 21);
    cache.set('c', 20);
    cache.set('d', Number.NaN);
    expect(cache.has('b')).toBe(false);
    expect(cache.has('d')).toBe(false);
    expect(cache.has('c')).toBe(true);
    expect(cache.weight).toBe(30);
    // Replacing a kept key by a value too heavy drops it rather than keep the stale one.
    cache.set('a', 50);
    expect(cache.has('a')).toBe(false);
    expect(cache.weight).toBe(20);
  });

  it('keeps its weight through replacing, deleting and clearing', () => {
    const cache = new LruCache<string, number>(1_000, { weigh: (v) => v });
    cache.set('a', 700);
    cache.set('a', 300);
    cache.set('b', 200);
    expect(cache.weight).toBe(500);
    cache.delete('a');
    cache.delete('a');
    expect(cache.weight).toBe(200);
    cache.clear();
    expect(cache.weight).toBe(0);
    expect(cache.size).toBe(0);
  });

  it('refuses a bound below one, and a count that is not whole', () => {
    expect(() => new LruCache(0)).toThrow(RangeError);
    expect(() => new LruCache(2.5)).toThrow(RangeError);
    expect(() => new LruCache(Number.POSITIVE_INFINITY, { weigh: () => 1 })).toThrow(RangeError);
    expect(new LruCache(2.5, { weigh: () => 1 }).size).toBe(0);
  });
});
