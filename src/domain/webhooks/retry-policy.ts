// When a failed delivery is tried again, and when an endpoint is given up on (§12): retries after
// 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, each jittered by up to ±10 % so endpoints that failed
// together do not all come back at once; a 410 disables the endpoint at once; 20 failures in a
// row, or failing for 5 days, disables it too.
export const RETRY_DELAYS_MS: readonly number[] = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
export const DELIVERY_TIMEOUT_MS = 10_000;
export const DISABLE_AFTER_FAILURES = 20;
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 60 * 60 * 1000;
/** Delivery log rows are kept this long. */
export const DELIVERY_LOG_DAYS = 30;
/** At most this much of a receiver's answer is kept. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/** The wait before attempt `attempts + 1`, or null when `attempts` used them all. */
export function retryDelay(schedule: readonly number[], attempts: number, random: () => number = Math.random): number | null {
  const base = schedule[attempts - 1];
  if (base === undefined) return null;
  return Math.round(base * (0.9 + 0.2 * random()));
}

export type DisableReason = 'gone' | 'failures' | 'failing';

/** Why an endpoint is disabled after a failed attempt, or null to keep it. */
export function disableAfterFailure(
  status: number | null,
  consecutiveFailures: number,
  failingSinceMs: number,
  nowMs: number,
): DisableReason | null {
  if (status === 410) return 'gone';
  if (consecutiveFailures >= DISABLE_AFTER_FAILURES) return 'failures';
  if (nowMs - failingSinceMs >= DISABLE_AFTER_FAILING_MS) return 'failing';
  return null;
}

export function disabledMessage(reason: string): string {
  switch (reason) {
    case 'gone':
      return 'the receiver answered 410 Gone';
    case 'failures':
      return `${DISABLE_AFTER_FAILURES} deliveries in a row failed`;
    case 'failing':
      return 'deliveries failed for 5 days';
    case 'manual':
      return 'disabled by a member of the account';
    default:
      return reason;
  }
}
