// Failed sign-in attempts per address and per email, counted in fixed windows in this
// process. A guesser is slowed to a handful of tries per window per email whatever its
// address, and to a few dozen per address whatever the emails.
export interface AttemptLimits {
  perEmail: number;
  perAddress: number;
  windowMs: number;
}

export const SIGN_IN_LIMITS: AttemptLimits = { perEmail: 5, perAddress: 20, windowMs: 15 * 60_000 };

interface Window {
  count: number;
  resetAt: number;
}

export class AttemptLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly limits: AttemptLimits = SIGN_IN_LIMITS) {}

  /** Seconds until another attempt is allowed, or 0 when it is allowed now. */
  retryAfter(address: string, email: string, now = Date.now()): number {
    const wait = (key: string, max: number) => {
      const w = this.windows.get(key);
      if (!w || w.resetAt <= now || w.count < max) return 0;
      return Math.ceil((w.resetAt - now) / 1000);
    };
    return Math.max(wait(`a:${address}`, this.limits.perAddress), wait(`e:${email}`, this.limits.perEmail));
  }

  recordFailure(address: string, email: string, now = Date.now()): void {
    this.bump(`a:${address}`, now);
    this.bump(`e:${email}`, now);
  }

  private bump(key: string, now: number): void {
    const w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      if (this.windows.size > 100_000) this.prune(now);
      this.windows.set(key, { count: 1, resetAt: now + this.limits.windowMs });
    } else w.count++;
  }

  private prune(now: number): void {
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }
}
