// Failures counted per key (a client address, an email) in fixed windows, in this process's
// memory. The one mechanism behind every "too many failed attempts" limit: API-key auth per
// address and sign-in per address and per email. Bounded: past `maxKeys`, the least recently
// seen keys are forgotten first, so a flood of new addresses cannot grow memory.
import { LruCache } from '../scans/lru-cache.ts';

interface Window {
  startedAt: number;
  failures: number;
}

export class FailureWindows {
  private readonly windows: LruCache<string, Window>;

  constructor(
    private readonly windowMs: number,
    maxKeys: number,
  ) {
    this.windows = new LruCache(maxKeys);
  }

  /** Seconds until `key` may try again (its window holds `max` failures), or 0 when it may try now. */
  retryAfter(key: string, max: number, now: number): number {
    const w = this.current(key, now);
    if (w === undefined || w.failures < max) return 0;
    return Math.max(1, Math.ceil((w.startedAt + this.windowMs - now) / 1000));
  }

  record(key: string, now: number): void {
    const w = this.current(key, now);
    if (w === undefined) this.windows.set(key, { startedAt: now, failures: 1 });
    else w.failures++;
  }

  private current(key: string, now: number): Window | undefined {
    const w = this.windows.get(key);
    return w !== undefined && now - w.startedAt < this.windowMs ? w : undefined;
  }
}
