// Failed sign-in attempts per address and per email, counted in fixed windows. A guesser is
// slowed to a handful of tries per window per email whatever its address, and to a few dozen
// per address whatever the emails. AttemptLimiter counts in this process; with REDIS_URL the
// counts are shared by every process (db/accounts/shared-attempt-limiter.ts), so N processes do not
// give a guesser N times the tries.
import { FailureWindows } from './failure-windows.ts';

export interface AttemptLimits {
  perEmail: number;
  perAddress: number;
  windowMs: number;
}

export const SIGN_IN_LIMITS: AttemptLimits = { perEmail: 5, perAddress: 20, windowMs: 15 * 60_000 };

/** Open sign-ups that created an account, per address (an IPv6 /64) and hour. */
export const SIGNUPS_PER_HOUR = 10;
/** Sign-ups are counted as the "failures" of this limiter, by address only (the email key is the address again). */
export const SIGN_UP_LIMITS: AttemptLimits = { perEmail: SIGNUPS_PER_HOUR, perAddress: SIGNUPS_PER_HOUR, windowMs: 3_600_000 };

const MAX_KEYS = 100_000;

/** An attempt let through: done() says how it went and ends it. */
export interface Attempt {
  /** Seconds to wait (the attempt was refused; done() then does nothing), or 0. */
  wait: number;
  done(failed: boolean): Promise<void>;
}

/**
 * What the sign-in routes ask: asynchronous, since the shared counts live in Redis. An attempt
 * counts as failed while it runs: the password hash takes a while, and 40 wrong passwords sent
 * at once all passed a check made before any of them had failed.
 */
export interface AttemptCounter {
  admit(address: string, email: string): Promise<Attempt>;
}

/** This process's counts as an AttemptCounter. */
export function localAttempts(limiter: AttemptLimiter): AttemptCounter {
  return {
    admit: async (address, email) => {
      const wait = limiter.admit(address, email);
      return {
        wait,
        done: async (failed) => {
          if (wait === 0) limiter.settle(address, email, failed);
        },
      };
    },
  };
}

export class AttemptLimiter {
  private readonly failures: FailureWindows;
  /** Attempts running per key (only keys with one: bounded by the requests in flight). */
  private readonly running = new Map<string, number>();

  constructor(readonly limits: AttemptLimits = SIGN_IN_LIMITS) {
    this.failures = new FailureWindows(limits.windowMs, MAX_KEYS);
  }

  /** Seconds until another attempt is allowed, or 0 when it is allowed now (running attempts count as failed). */
  retryAfter(address: string, email: string, now = Date.now()): number {
    return Math.max(this.waitOf(`a:${address}`, this.limits.perAddress, now), this.waitOf(`e:${email}`, this.limits.perEmail, now));
  }

  /** Checks and, when allowed (0), counts the attempt as running until settle(): in one step, so concurrent attempts see each other. */
  admit(address: string, email: string, now = Date.now()): number {
    const wait = this.retryAfter(address, email, now);
    if (wait === 0) for (const key of [`a:${address}`, `e:${email}`]) this.running.set(key, (this.running.get(key) ?? 0) + 1);
    return wait;
  }

  /** Ends an admitted attempt; a failed one is counted in its window. */
  settle(address: string, email: string, failed: boolean, now = Date.now()): void {
    for (const key of [`a:${address}`, `e:${email}`]) {
      const left = (this.running.get(key) ?? 1) - 1;
      if (left > 0) this.running.set(key, left);
      else this.running.delete(key);
    }
    if (failed) this.recordFailure(address, email, now);
  }

  recordFailure(address: string, email: string, now = Date.now()): void {
    this.failures.record(`a:${address}`, now);
    this.failures.record(`e:${email}`, now);
  }

  private waitOf(key: string, max: number, now: number): number {
    const running = this.running.get(key) ?? 0;
    const wait = this.failures.retryAfter(key, max - running, now);
    if (wait > 0) return wait;
    return running >= max ? 1 : 0;
  }
}
