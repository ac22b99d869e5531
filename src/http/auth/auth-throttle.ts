// Failed authentication is limited per client address (an IPv6 /64): without it, anyone can try keys
// as fast as the server answers, each try a database lookup. A one-minute window per
// address (each process counts its own; the per-key limit behind it is the shared one).
// Lookups still running count against the address as if they had failed: on PostgreSQL a
// lookup is a round trip, and guesses sent all at once would otherwise all pass (docs/security.md).
import { FailureWindows } from '../../domain/accounts/failure-windows.ts';
import { LruCache } from '../../domain/scans/lru-cache.ts';
import { addressKey } from '../../domain/address-key.ts';

const WINDOW_MS = 60_000;
const MAX_ADDRESSES = 50_000;
/** Secrets (their hashes) seen valid lately: enough for every active key and session of a busy instance. */
const MAX_VOUCHED = 20_000;

export class AuthThrottle {
  private readonly failures = new FailureWindows(WINDOW_MS, MAX_ADDRESSES);
  /** Lookups in flight per address (only addresses with one: bounded by the requests in flight). */
  private readonly pending = new Map<string, number>();
  /** Lookups of the same secret in flight, shared: a client sending one key many times at once is one lookup. */
  private readonly shared = new Map<string, Promise<unknown>>();
  /**
   * Secrets found valid lately. They pass an address's wait: behind one NAT or an unconfigured
   * proxy, one client's wrong key would otherwise lock every good key of that address out for
   * a minute, and a secret we have seen valid is no guess (it is still looked up: a revoked
   * key is refused, and counted).
   */
  private readonly vouched = new LruCache<string, true>(MAX_VOUCHED);

  constructor(
    private readonly maxFailuresPerMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until `address` may try again, or 0 when it may try now (always 0 for a secret seen valid lately). */
  retryAfter(ip: string, secretHash?: string): number {
    if (secretHash !== undefined && this.vouched.get(secretHash) !== undefined) return 0;
    const address = addressKey(ip);
    const inFlight = this.pending.get(address) ?? 0;
    const wait = this.failures.retryAfter(address, this.maxFailuresPerMinute - inFlight, this.now());
    if (wait > 0) return wait;
    return inFlight >= this.maxFailuresPerMinute ? 1 : 0;
  }

  /** The secret was valid: its requests pass the address's wait from now on. */
  vouch(secretHash: string): void {
    this.vouched.set(secretHash, true);
  }

  recordFailure(ip: string): void {
    this.failures.record(addressKey(ip), this.now());
  }

  /**
   * Runs the lookup of `secretHash` for `address`, counted as in flight until it settles. A
   * lookup of the same secret already running is joined instead, and not counted again.
   */
  lookup<T>(ip: string, secretHash: string, find: () => Promise<T>): Promise<T> {
    const address = addressKey(ip);
    const running = this.shared.get(secretHash);
    if (running !== undefined) return running as Promise<T>;
    // A secret seen valid lately is no guess: its lookup does not count against the address
    // (many clients with their own keys behind one NAT would else hold a new key back).
    const counted = this.vouched.get(secretHash) === undefined;
    if (counted) this.pending.set(address, (this.pending.get(address) ?? 0) + 1);
    const done = find().finally(() => {
      this.shared.delete(secretHash);
      if (!counted) return;
      const left = (this.pending.get(address) ?? 1) - 1;
      if (left > 0) this.pending.set(address, left);
      else this.pending.delete(address);
    });
    this.shared.set(secretHash, done);
    return done;
  }
}
