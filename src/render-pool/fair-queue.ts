// Jobs waiting for a render worker, taken round-robin between accounts (each account's own in
// the order sent), so one account's many jobs wait behind each other and not in front of
// everyone else's.
export class FairQueue<T> {
  /** A Map keeps insertion order: an account served goes to the back. */
  private readonly byAccount = new Map<string, T[]>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  waitingOf(account: string): number {
    return this.byAccount.get(account)?.length ?? 0;
  }

  push(account: string, item: T): void {
    const list = this.byAccount.get(account);
    if (list) list.push(item);
    else this.byAccount.set(account, [item]);
    this.count++;
  }

  /** The next account's oldest item; that account then waits behind the others. */
  shift(): T | undefined {
    for (const [account, list] of this.byAccount) {
      const item = list.shift();
      this.byAccount.delete(account);
      if (list.length > 0) this.byAccount.set(account, list);
      if (item !== undefined) {
        this.count--;
        return item;
      }
    }
    return undefined;
  }

  /** The account with the most items waiting, and how many (ties: the one served longest ago). */
  heaviest(): { account: string; count: number } | undefined {
    let best: { account: string; count: number } | undefined;
    for (const [account, list] of this.byAccount) if (!best || list.length > best.count) best = { account, count: list.length };
    return best;
  }

  /** Takes `account`'s newest item out (the one it sent last). */
  popNewest(account: string): T | undefined {
    const list = this.byAccount.get(account);
    const item = list?.pop();
    if (item === undefined) return undefined;
    if (list?.length === 0) this.byAccount.delete(account);
    this.count--;
    return item;
  }

  remove(account: string, item: T): boolean {
    const list = this.byAccount.get(account);
    const at = list?.indexOf(item) ?? -1;
    if (!list || at < 0) return false;
    list.splice(at, 1);
    if (list.length === 0) this.byAccount.delete(account);
    this.count--;
    return true;
  }
}

/** A pool's two kinds of work: what a person waits for, and bulk work (exports, ZIPs). */
export type Lane = 'interactive' | 'bulk';

/**
 * The waiting jobs of a worker pool in two lanes, each a FairQueue, and the jobs started per
 * lane: shared by the render pool and the read pool, which hand out workers the same way.
 */
export class Lanes<T extends { who: { lane: Lane } }> {
  readonly waiting: Record<Lane, FairQueue<T>> = { interactive: new FairQueue(), bulk: new FairQueue() };
  readonly started: Record<Lane, number> = { interactive: 0, bulk: 0 };

  constructor(private readonly workers: number) {}

  get busy(): number {
    return this.started.interactive + this.started.bulk;
  }

  get queued(): number {
    return this.waiting.interactive.size + this.waiting.bulk.size;
  }

  /**
   * Whether a job of `lane` may have a worker now: interactive jobs take any free worker no
   * other interactive job waits for; bulk jobs only when nothing waits, and never the last free
   * worker when there are several, so an interactive job asked for meanwhile starts at once.
   */
  hasWorkerFor(lane: Lane): boolean {
    if (this.busy >= this.workers) return false;
    if (lane === 'interactive') return this.waiting.interactive.size === 0;
    if (this.queued > 0) return false;
    return this.bulkMayStart();
  }

  /** The next waiting job a free worker takes, counted as started: interactive ones first, each lane round-robin between accounts. */
  next(): T | undefined {
    if (this.busy >= this.workers) return undefined;
    let job = this.waiting.interactive.shift();
    if (job === undefined && this.bulkMayStart()) job = this.waiting.bulk.shift();
    if (job !== undefined) this.started[job.who.lane]++;
    return job;
  }

  private bulkMayStart(): boolean {
    return this.workers === 1 || this.started.bulk < this.workers - 1;
  }
}
