// One import and one export per account at a time (in this process): each holds the thread
// answering the short links for a few milliseconds at a time, and many at once from one account
// (17 ZIP exports, say) would take every other account's share of the machine.
import { ConflictError } from '../domain/errors.ts';

export type BulkJobKind = 'import' | 'export';

export class RunningJobs {
  /** What runs now, by account and kind: "a CSV export", "a ZIP of PNG images", … */
  private readonly running = new Map<string, string>();

  /**
   * Marks a job of `kind` as running for the account and answers the function that ends it
   * (safe to call more than once); a 409 naming the job that runs when there is one.
   */
  start(accountId: string, kind: BulkJobKind, what: string): () => void {
    const key = `${kind}:${accountId}`;
    const current = this.running.get(key);
    if (current !== undefined) {
      throw new ConflictError(
        `${kind}: ${current} of this account is still running; an account runs one ${kind} at a time, so retry when it has finished`,
      );
    }
    this.running.set(key, what);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.running.delete(key);
    };
  }
}
