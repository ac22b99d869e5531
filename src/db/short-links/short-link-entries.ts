// The short links' cache itself: targets by code, bounded by the memory they hold rather than by
// their number. A plain URL code holds about half a kilobyte; a code with 25 rules of many values
// holds up to a few megabytes once its rules are compiled (measured: 0.5-3.2 MB), so a bound of
// 50,000 entries let one account's codes, each scanned once, grow the heap past what the process
// has. Approximately least recently used first out (LruCache): a busy code stays while a stream of
// codes scanned once passes through.
import { LruCache } from '../../domain/scans/lru-cache.ts';
import type { ShortLinkTarget } from '../qr-items/qr-items-repository.ts';

/** What an absent code (cached as null, so made-up codes are not a query each) is counted as. */
const ABSENT_BYTES = 128;
/** A target larger than this share of the budget is looked up each time rather than flush the rest. */
const LARGEST_SHARE = 8;

/** Cached targets by code: null for a code that does not exist, undefined from `get` when not cached. */
export type ShortLinkEntries = LruCache<string, ShortLinkTarget | null>;

export function shortLinkEntries(budgetBytes: number): ShortLinkEntries {
  return new LruCache<string, ShortLinkTarget | null>(budgetBytes, {
    weigh: (target, code) => (target === null ? ABSENT_BYTES + 2 * code.length : target.approxBytes),
    maxEntryWeight: budgetBytes / LARGEST_SHARE,
  });
}
