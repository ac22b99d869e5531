// Heavy reads off the event loop, on SQLite: a small piscina pool of worker threads, each with
// its own read-only connection to the server's file (WAL lets them read beside the scan
// writer). The main thread answers the short links; a 90-day stats read, a page of sparklines,
// the account overview or an export page never holds it (docs/decisions/read-workers.md).
//
// Bounded like the render pool: piscina only ever gets as many jobs as it has workers; the rest
// wait here, per lane (interactive reads before export pages) and round-robin between accounts
// within a lane, at most `queue` a lane, an account past its share making room for others. A
// job that waits longer than `waitMs` is answered 503 with Retry-After, never queued without end.
import { Piscina } from 'piscina';
import type { ReadConfig } from '../config.ts';
import { DomainError, ServiceBusyError } from '../domain/errors.ts';
import { type FairQueue, Lanes } from '../render-pool/fair-queue.ts';
import { workerFile } from '../worker-bundle.ts';
import { READ_KINDS, type ReadJob, type ReadKind, type ReadOps, type ReadOutcome } from './read-operations.ts';
import type { ReadWorkerData } from './read-worker.ts';

/**
 * Whose read and how urgent: `interactive` (a page someone waits for) before `bulk` (an export's
 * pages). `bounded: false` for an export's later pages: its answer has begun and cannot turn into
 * a 503, and an account runs one export at a time, so each export has at most one such job.
 */
export interface ReadFor {
  account: string;
  lane: ReadLane;
  bounded?: boolean;
}
export type ReadLane = 'interactive' | 'bulk';

/** Read threads yield the CPU to the main thread (Linux nice, per thread), as render threads do. */
const WORKER_NICE = 10;
/** An export page of codes with large designs fits many times over. */
const WORKER_HEAP = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 };
/** An account's fair share of a full lane: this fraction of its queue (rounded up). */
const ACCOUNT_SHARE_OF_QUEUE = 4;
const QUEUE_FULL_MESSAGE = 'reads: too many reads are waiting; retry later';
const WAITED_MESSAGE = 'reads: the server is too busy to read this now; retry later';

interface Waiting {
  who: ReadFor;
  start(): void;
  refuse(err: Error): void;
  timer: NodeJS.Timeout | null;
}

export class ReadPool {
  private readonly pool: Piscina<ReadJob, ReadOutcome>;
  private readonly lanes: Lanes<Waiting>;
  private readonly waiting: Lanes<Waiting>['waiting'];
  /** Jobs handed to piscina and not answered yet. */
  private readonly started: Lanes<Waiting>['started'];
  private readonly completed = Object.fromEntries(READ_KINDS.map((k) => [k, 0])) as Record<ReadKind, number>;
  private readonly accountShare: number;
  private readonly retryAfterSeconds: number;
  private closed = false;

  constructor(
    file: string,
    private readonly config: ReadConfig,
  ) {
    this.lanes = new Lanes(config.workers);
    this.waiting = this.lanes.waiting;
    this.started = this.lanes.started;
    const workerData: ReadWorkerData = { file };
    this.pool = new Piscina({
      filename: workerFile('read-worker'),
      workerData,
      execArgv: [],
      minThreads: 0,
      maxThreads: config.workers,
      // A worker costs some 0.1 s to start (its modules, its connection): keep it a while.
      idleTimeout: 60_000,
      resourceLimits: WORKER_HEAP,
      niceIncrement: WORKER_NICE,
      atomics: 'disabled',
    });
    this.accountShare = Math.ceil(config.queue / ACCOUNT_SHARE_OF_QUEUE);
    this.retryAfterSeconds = Math.max(1, Math.ceil(config.waitMs / 1000));
  }

  /** Runs a read operation in a worker; a domain error there is thrown here as one (404, 400), a full pool as 503. */
  async run<K extends ReadKind>(who: ReadFor, kind: K, args: ReadOps[K]['args']): Promise<ReadOps[K]['answer']> {
    await this.admit(who);
    try {
      // The job's kind and arguments match by the signature; TypeScript cannot see it through the union.
      const outcome = await this.pool.run({ kind, args } as ReadJob);
      if (!outcome.ok) throw new DomainError(outcome.message, outcome.status);
      this.completed[kind]++;
      return outcome.answer as ReadOps[K]['answer'];
    } finally {
      this.started[who.lane]--;
      this.startNext();
    }
  }

  /** Jobs answered by the workers, by kind; jobs running and waiting now; the pool's threads. */
  get stats(): { completed: Record<ReadKind, number>; running: number; waiting: number; workers: number } {
    return {
      completed: { ...this.completed },
      running: this.lanes.busy,
      waiting: this.lanes.queued,
      workers: this.pool.threads.length,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const lane of ['interactive', 'bulk'] as const) {
      for (let w = this.waiting[lane].shift(); w !== undefined; w = this.waiting[lane].shift()) this.refuse(w, WAITED_MESSAGE);
    }
    await this.pool.close({ force: true });
  }

  /** Resolves once the job may have a worker (counted as started), or throws a 503. */
  private async admit(who: ReadFor): Promise<void> {
    if (this.closed) throw this.busy(WAITED_MESSAGE);
    if (this.hasWorkerFor(who.lane)) {
      this.started[who.lane]++;
      return;
    }
    const queue = this.waiting[who.lane];
    const bounded = who.bounded !== false;
    if (bounded && queue.size >= this.config.queue && !this.makeRoom(queue, who.account)) throw this.busy(QUEUE_FULL_MESSAGE);
    await new Promise<void>((start, refuse) => {
      const w: Waiting = { who, start, refuse, timer: null };
      if (bounded) {
        w.timer = setTimeout(() => {
          if (queue.remove(who.account, w)) this.refuse(w, WAITED_MESSAGE);
        }, this.config.waitMs);
        w.timer.unref();
      }
      queue.push(who.account, w);
    });
  }

  private hasWorkerFor(lane: ReadLane): boolean {
    return this.lanes.hasWorkerFor(lane);
  }

  /** Hands free workers to waiting jobs (Lanes.next says in which order). */
  private startNext(): void {
    for (;;) {
      const next = this.lanes.next();
      if (next === undefined) return;
      if (next.timer) clearTimeout(next.timer);
      next.start();
    }
  }

  /**
   * A full lane makes room for `account` by refusing the newest bounded job of the account holding
   * the most places, if that is another account past its share: one account alone may fill the
   * queue, yet never keep others out of it.
   */
  private makeRoom(queue: FairQueue<Waiting>, account: string): boolean {
    const heaviest = queue.heaviest();
    if (!heaviest || heaviest.account === account || heaviest.count <= this.accountShare) return false;
    if (queue.waitingOf(account) >= this.accountShare) return false;
    const displaced = queue.popNewest(heaviest.account);
    if (displaced === undefined) return false;
    if (displaced.who.bounded === false) {
      // An export under way keeps its place.
      queue.push(heaviest.account, displaced);
      return false;
    }
    this.refuse(displaced, QUEUE_FULL_MESSAGE);
    return true;
  }

  private refuse(w: Waiting, message: string): void {
    if (w.timer) clearTimeout(w.timer);
    w.refuse(this.busy(message));
  }

  private busy(message: string): ServiceBusyError {
    return new ServiceBusyError(message, this.retryAfterSeconds);
  }
}
