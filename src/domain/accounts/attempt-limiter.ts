// Failed sign-in attempts per address and per email, counted in fixed windows. A guesser is
// slowed to a handful of tries per window per email whatever its address, and to a few dozen
// per address whatever the emails. AttemptLimiter counts in this process; with REDIS_URL the
// counts are shared by every process (db/shared-attempt-limiter.ts), so N processes do not
// give a guesser N times the tries.
import { FailureWindows } from '../failure-windows.ts';

export interface AttemptLimits {
  perEmail: number;
  perAddress: number;
  windowMs: number;
}

export const SIGN_IN_LIMITS: AttemptLimits = { perEmail: 5, perAddress: 20, windowMs: 15 * 60_000 };

const MAX_KEYS = 100_000;

/** What the sign-in routes ask: asynchronous, since the shared counts live in Redis. */
export interface AttemptCounter {
  /** Seconds until another attempt is allowed, or 0 when it is allowed now. */
  retryAfter(address: string, email: string): Promise<number>;
  recordFailure(address: string, email: string): Promise<void>;
}

/** This process's counts as an AttemptCounter. */
export function localAttempts(limiter: AttemptLimiter): AttemptCounter {
  return {
    retryAfter: async (address, email) => limiter.retryAfter(address, email),
    recordFailure: async (address, email) => limiter.recordFailure(address, email),
  };
}

export class AttemptLimiter {
  private readonly failures: FailureWindows;

  constructor(readonly limits: AttemptLimits = SIGN_IN_LIMITS) {
    this.failures = new FailureWindows(limits.windowMs, MAX_KEYS);
  }

  /** Seconds until another attempt is allowed, or 0 when it is allowed now. */
  retryAfter(address: string, email: string, now = Date.now()): number {
    return Math.max(this.failures.retryAfter(`a:${address}`, this.limits.perAddress, now), this.failures.retryAfter(`e:${email}`, this.limits.perEmail, now));
  }

  recordFailure(address: string, email: string, now = Date.now()): void {
    this.failures.record(`a:${address}`, now);
    this.failures.record(`e:${email}`, now);
  }
}
