// Short-link targets by code, kept in memory so a redirect does no lookup query.
// Only for a single process (SQLite): the API invalidates an entry on every update,
// pause, resume, delete and create (a code looked up before it existed is cached as
// null, so a flood of made-up codes does not become a flood of queries).
import type { QrItemsRepository, ShortLinkTarget } from '../qr-items/qr-items-repository.ts';
import { type ShortLinkEntries, shortLinkEntries } from './short-link-entries.ts';

/** What a process's cache holds and how it has answered, for /metrics (read when scraped). */
export interface ShortLinkCacheStats {
  entries: number;
  /** The targets' estimated heap. */
  bytes: number;
  /** Lookups answered from memory, and lookups that read the database (since the process started). */
  hits: number;
  misses: number;
}

export interface ShortLinkResolver {
  resolve(code: string): Promise<ShortLinkTarget | null>;
  /**
   * Drops the codes (created, changed, paused, resumed or deleted) wherever they are cached;
   * resolves when every process has been told (an API answer awaits it).
   */
  invalidate(codes: readonly string[]): Promise<void>;
  start?(): Promise<void>;
  close?(): Promise<void>;
  cacheStats(): ShortLinkCacheStats;
}

/** The counts behind ShortLinkCacheStats, kept by each resolver. */
export function cacheStatsOf(entries: ShortLinkEntries, hits: number, misses: number): ShortLinkCacheStats {
  return { entries: entries.size, bytes: entries.weight, hits, misses };
}

export class CachedShortLinks implements ShortLinkResolver {
  private readonly entries: ShortLinkEntries;
  private hits = 0;
  private misses = 0;

  /** `budgetBytes`: SHORT_LINK_CACHE_MB (config.ts) in bytes. */
  constructor(
    private readonly items: QrItemsRepository,
    budgetBytes: number,
  ) {
    this.entries = shortLinkEntries(budgetBytes);
  }

  async resolve(code: string): Promise<ShortLinkTarget | null> {
    const hit = this.entries.get(code);
    if (hit !== undefined) {
      this.hits++;
      return hit;
    }
    this.misses++;
    const target = await this.items.findByCode(code);
    this.entries.set(code, target);
    return target;
  }

  async invalidate(codes: readonly string[]): Promise<void> {
    for (const code of codes) this.entries.delete(code);
  }

  cacheStats(): ShortLinkCacheStats {
    return cacheStatsOf(this.entries, this.hits, this.misses);
  }
}
