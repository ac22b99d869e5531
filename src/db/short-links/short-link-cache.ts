// Short-link targets by code, kept in memory so a redirect does no lookup query.
// Only for a single process (SQLite): the API invalidates an entry on every update,
// pause, resume, delete and create (a code looked up before it existed is cached as
// null, so a flood of made-up codes does not become a flood of queries).
import type { QrItemsRepository, ShortLinkTarget } from '../qr-items/qr-items-repository.ts';
import { ShortLinkEntries } from './short-link-entries.ts';

/** The cache's default memory budget (SHORT_LINK_CACHE_MB): some 100,000 plain URL codes. */
export const DEFAULT_SHORT_LINK_CACHE_MB = 64;

export interface ShortLinkResolver {
  resolve(code: string): Promise<ShortLinkTarget | null>;
  /**
   * Drops the codes (created, changed, paused, resumed or deleted) wherever they are cached;
   * resolves when every process has been told (an API answer awaits it).
   */
  invalidate(codes: readonly string[]): Promise<void>;
  start?(): Promise<void>;
  close?(): Promise<void>;
}

export class CachedShortLinks implements ShortLinkResolver {
  private readonly entries: ShortLinkEntries;

  constructor(
    private readonly items: QrItemsRepository,
    budgetBytes = DEFAULT_SHORT_LINK_CACHE_MB * 1024 * 1024,
  ) {
    this.entries = new ShortLinkEntries(budgetBytes);
  }

  async resolve(code: string): Promise<ShortLinkTarget | null> {
    const hit = this.entries.get(code);
    if (hit !== undefined) return hit;
    const target = await this.items.findByCode(code);
    this.entries.set(code, target);
    return target;
  }

  async invalidate(codes: readonly string[]): Promise<void> {
    for (const code of codes) this.entries.delete(code);
  }
}
