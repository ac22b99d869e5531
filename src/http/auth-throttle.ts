// Failed authentication is limited per client address: without it, anyone can try keys
// as fast as the server answers, each try a database lookup. A fixed one-minute window
// per address, in memory (each process counts its own; the per-key limit behind it is
// the shared one). Bounded: the least recently seen addresses are forgotten first.
import { LruCache } from '../domain/scans/lru-cache.ts';

const WINDOW_MS = 60_000;
const MAX_ADDRESSES = 50_000;

interface Window {
  startedAt: number;
  failures: number;
}

export class AuthThrottle {
  private readonly windows = new LruCache<string, Window>(MAX_ADDRESSES);

  constructor(
    private readonly maxFailuresPerMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until `address` may try again, or 0 when it may try now. */
  retryAfter(address: string): number {
    const w = this.current(address);
    if (w === undefined || w.failures < this.maxFailuresPerMinute) return 0;
    return Math.max(1, Math.ceil((w.startedAt + WINDOW_MS - this.now()) / 1000));
  }

  recordFailure(address: string): void {
    const w = this.current(address);
    if (w === undefined) this.windows.set(address, { startedAt: this.now(), failures: 1 });
    else w.failures++;
  }

  private current(address: string): Window | undefined {
    const w = this.windows.get(address);
    return w !== undefined && this.now() - w.startedAt < WINDOW_MS ? w : undefined;
  }
}
