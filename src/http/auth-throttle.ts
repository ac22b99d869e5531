// Failed authentication is limited per client address: without it, anyone can try keys
// as fast as the server answers, each try a database lookup. A one-minute window per
// address (each process counts its own; the per-key limit behind it is the shared one).
import { FailureWindows } from '../domain/failure-windows.ts';

const WINDOW_MS = 60_000;
const MAX_ADDRESSES = 50_000;

export class AuthThrottle {
  private readonly failures = new FailureWindows(WINDOW_MS, MAX_ADDRESSES);

  constructor(
    private readonly maxFailuresPerMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until `address` may try again, or 0 when it may try now. */
  retryAfter(address: string): number {
    return this.failures.retryAfter(address, this.maxFailuresPerMinute, this.now());
  }

  recordFailure(address: string): void {
    this.failures.record(address, this.now());
  }
}
