// One import and one export per account at a time: each holds the thread answering the short
// links for a few milliseconds at a time, and many at once from one account (17 ZIP exports,
// say) would take every other account's share of the machine. Counted in the database (a lease
// row per account and kind, bulk_leases), so every server process on it and the CLI's import
// and export take part; a lease its process no longer renews (killed) expires after LEASE_TTL_MS.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { BulkLeasesRepository } from '../db/accounts/bulk-leases-repository.ts';
import type { Db } from '../db/database.ts';
import { ConflictError } from '../domain/errors.ts';

export type BulkJobKind = 'import' | 'export';

/** How long a lease outlives its last renewal; a running job renews it every third of that. */
export const LEASE_TTL_MS = 60_000;

export class RunningJobs {
  private readonly leases: BulkLeasesRepository;

  constructor(
    db: Db,
    private readonly ttlMs = LEASE_TTL_MS,
  ) {
    this.leases = new BulkLeasesRepository(db);
  }

  /**
   * Marks a job of `kind` as running for the account and answers the function that ends it
   * (safe to call more than once; await it where the next job may follow at once); a 409 naming
   * the job that runs, in whichever process, when there is one.
   */
  async start(accountId: string, kind: BulkJobKind, what: string): Promise<() => Promise<void>> {
    const holder = `${hostname()}:${process.pid}:${randomUUID()}`;
    const lease = await this.leases.take(accountId, kind, holder, what, this.ttlMs);
    if (!lease.taken) {
      throw new ConflictError(
        `${kind}: ${lease.what} of this account is still running; an account runs one ${kind} at a time, so retry when it has finished`,
      );
    }
    // A renewal that fails (the database away for a moment) is retried at the next; the lease
    // expires only after three missed.
    const renewal = setInterval(() => void this.leases.renew(accountId, kind, holder, this.ttlMs).catch(() => {}), this.ttlMs / 3);
    renewal.unref();
    let ended: Promise<void> | null = null;
    return () => {
      if (ended === null) {
        clearInterval(renewal);
        // Not ended (the database away): it expires.
        ended = this.leases.end(accountId, kind, holder).catch(() => {});
      }
      return ended;
    };
  }
}
