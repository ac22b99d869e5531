// Failed sign-in attempts per address and per email, counted in fixed windows in this
// process. A guesser is slowed to a handful of tries per window per email whatever its
// address, and to a few dozen per address whatever the emails.
import { FailureWindows } from '../failure-windows.ts';

export interface AttemptLimits {
  perEmail: number;
  perAddress: number;
  windowMs: number;
}

export const SIGN_IN_LIMITS: AttemptLimits = { perEmail: 5, perAddress: 20, windowMs: 15 * 60_000 };

const MAX_KEYS = 100_000;

export class AttemptLimiter {
  private readonly failures: FailureWindows;

  constructor(private readonly limits: AttemptLimits = SIGN_IN_LIMITS) {
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
