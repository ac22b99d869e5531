// Rendering off the event loop: a bounded piscina pool of worker threads, each job held
// to a budget. The main thread answers the short links; a render, however costly its
// logo, must never hold it up.
//
// Budget: a job may use `timeoutMs` of CPU time (read from the kernel on Linux, wall
// time elsewhere). CPU time, not wall time, decides whether a design is too costly, so a
// render slowed by load is never blamed on its logo; a job starved of CPU for long, or
// left waiting in the queue, is answered 503 instead. A job over budget is aborted, which
// makes piscina terminate its worker and start a fresh one.
//
// A worker blocked inside the rasterizer (native code) only stops once the rasterizer
// returns: V8 cannot interrupt native code. Such a thread keeps a core busy after its
// job was answered, so the pool counts these threads (each job's MessagePort closes when
// its thread has really exited) and refuses new work while `workers` of them still run.
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { RenderConfig } from '../config.ts';
import { DomainError, ServiceBusyError, ValidationError } from '../domain/errors.ts';
import type { ParsedLogo } from '../domain/design/logo.ts';
import { type RenderJob, type RenderOutcome, type RenderTask, SIGNAL, threadCpuNs } from './render-worker.ts';
import { type FairQueue, Lanes } from './fair-queue.ts';
import { workerFile } from '../worker-bundle.ts';
import type { BatchBodyJob, ReadBatch } from '../http/request/batch-body.ts';

export type { RenderJob } from './render-worker.ts';

export const LOGO_TOO_EXPENSIVE = 'customLogoUrl: the logo is too expensive to draw';

/** Render threads yield the CPU to the main thread (Linux nice, per thread). */
const WORKER_NICE = 10;
/** V8 heap per worker: an SVG of a few MiB and its logo fit many times over. */
const WORKER_HEAP = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 };

/** piscina's messages for a task refused because its queue is full (RENDER_QUEUE > 0, and 0). */
const QUEUE_FULL = new Set(['Task queue is at limit', 'No task queue available and all Workers are busy']);

const QUEUE_FULL_MESSAGE = 'render: the render queue is full; retry later';
/** CPU milliseconds a batch's body may take to read in a worker. */
const BODY_BUDGET_MS = 10_000;
/** An account's fair share of a full lane: this fraction of its queue (rounded up), 1/4 of 16 is 4. */
const ACCOUNT_SHARE_OF_QUEUE = 4;

/**
 * Whose job and how urgent: `interactive` (an image or preview someone waits for, a create's
 * logo) goes before `bulk` (a ZIP export's images, an import's logos), and each lane is shared
 * round-robin between accounts, so one account's exports cannot starve the others' previews
 * (docs/decisions/bulk-work-and-quotas.md).
 */
export interface RenderFor {
  account: string;
  lane: RenderLane;
}
export type RenderLane = 'interactive' | 'bulk';

/** Anonymous work (the CLI's, a test's): one account of its own, interactive. */
const NOBODY: RenderFor = { account: '', lane: 'interactive' };

interface PendingJob {
  job: RenderJob;
  who: RenderFor;
  /** Set while the job waits for a worker: hands it to piscina, or refuses it. */
  waiting: { start(): void; refuse(err: Error): void } | null;
  /** CPU milliseconds this job may use. */
  budgetMs: number;
  signal: BigInt64Array;
  lifeline: MessagePort;
  abort: AbortController;
  submittedAt: number;
  verdict: 'over-budget' | 'waited-too-long' | 'starved' | null;
}

export class RenderPool {
  private readonly pool: Piscina<RenderTask, RenderOutcome>;
  private readonly pending = new Set<PendingJob>();
  /** Jobs stopped over budget whose threads have not exited yet. */
  private readonly abandoned = new Set<PendingJob>();
  private readonly submitted: Record<RenderJob['kind'], number> = { svg: 0, png: 0, pdf: 0, logo: 0, 'batch-body': 0 };
  private watch: NodeJS.Timeout | null = null;
  private readonly watchEveryMs: number;
  private readonly retryAfterSeconds: number;
  private readonly wallLimitMs: number;
  /** Jobs waiting for a worker, by lane; piscina only ever gets as many jobs as it has workers. */
  private readonly lanes: Lanes<PendingJob>;
  private readonly waiting: Lanes<PendingJob>['waiting'];
  /** Jobs handed to piscina and not answered yet. */
  private readonly started: Lanes<PendingJob>['started'];
  /** Jobs an account keeps waiting in a full lane when another account needs room. */
  private readonly accountShare: number;

  constructor(private readonly config: RenderConfig) {
    this.lanes = new Lanes(config.workers);
    this.waiting = this.lanes.waiting;
    this.started = this.lanes.started;
    this.pool = new Piscina({
      // Plain JavaScript bundled from the TypeScript (see src/worker-bundle.ts), on every Node.
      filename: workerFile('render-worker'),
      execArgv: [],
      minThreads: 0,
      maxThreads: config.workers,
      // A worker costs about 0.2 s to start (tsx compiles the renderer): keep it a while.
      idleTimeout: 60_000,
      maxQueue: config.queue,
      resourceLimits: WORKER_HEAP,
      niceIncrement: WORKER_NICE,
      // The rasterizer's pixmaps are freed by finalizers on a later loop turn, which 'sync'
      // (Atomics.wait) never gives; message-port hand-offs do (docs/performance.md).
      atomics: 'disabled',
    });
    this.watchEveryMs = Math.max(5, Math.min(50, Math.floor(config.timeoutMs / 10)));
    this.retryAfterSeconds = Math.max(1, Math.ceil(config.timeoutMs / 1000));
    // Waiting for a worker (its start included) or starved of CPU while running, past it: 503.
    this.wallLimitMs = config.wallLimitMs;
    this.accountShare = Math.ceil(config.queue / ACCOUNT_SHARE_OF_QUEUE);
  }

  /** For the metrics, read when scraped: jobs waiting for a worker, jobs on a worker, threads of stopped jobs still running. */
  get load(): { queued: number; busy: number; abandoned: number; workers: number } {
    return {
      queued: this.lanes.queued,
      busy: this.lanes.busy,
      abandoned: this.abandoned.size,
      workers: this.config.workers,
    };
  }

  /** Renders in a worker; throws a 400 naming the cost, or a 503 when the pool is busy. */
  async render(job: RenderJob, who: RenderFor = NOBODY, budgetMs = this.config.timeoutMs): Promise<Buffer | string> {
    const body = await this.answer(job, who, budgetMs);
    if (typeof body === 'string') return body;
    if (!(body instanceof Uint8Array)) throw new Error(`render: a ${job.kind} job answered no image`);
    return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  }

  /**
   * Reads and validates a batch's JSON body in a worker (src/http/request/batch-body.ts);
   * throws the 400 (or 415) to answer, as the main thread's parser and validator would.
   */
  async readBatchBody(job: BatchBodyJob, who: RenderFor = NOBODY): Promise<ReadBatch> {
    // Not a design's cost, so not RENDER_TIMEOUT_MS (which may be set low): a 16 MiB body takes
    // some 0.1-0.2 s of CPU, and this only stops a worker that never ends.
    const body = await this.answer({ kind: 'batch-body', ...job }, who, Math.max(this.config.timeoutMs, BODY_BUDGET_MS));
    if (typeof body === 'string' || body instanceof Uint8Array) throw new Error('render: a batch-body job answered an image');
    return body;
  }

  private async answer(job: RenderJob, who: RenderFor, budgetMs: number): Promise<Uint8Array | string | ReadBatch> {
    const outcome = await this.run(job, budgetMs, who);
    if (!outcome.ok) throw new DomainError(outcome.message, outcome.status);
    return outcome.body;
  }

  /**
   * Parses and sanitizes a custom logo in a worker; answers its ParsedLogo or a 400 naming
   * `field`. With `trialWidth` it is also drawn alone at the largest size an image that wide
   * gives a logo, within half the budget: a logo accepted with that headroom does not go over
   * budget later, when the image around it and a busier machine add to the cost.
   */
  async parseLogo(field: string, logo: string, trialWidth: number | null = null, who: RenderFor = NOBODY): Promise<ParsedLogo> {
    const budget = trialWidth === null ? this.config.timeoutMs : this.config.timeoutMs / 2;
    const dataUrl = String(await this.render({ kind: 'logo', field, logo, trialWidth }, who, budget));
    const comma = dataUrl.indexOf(',');
    const mediaType = dataUrl.slice('data:'.length, dataUrl.indexOf(';')) as ParsedLogo['mediaType'];
    return { mediaType, bytes: Buffer.from(dataUrl.slice(comma + 1), 'base64'), dataUrl };
  }

  /**
   * Jobs running now, jobs submitted so far by kind, the pool's threads, and threads of jobs
   * stopped over budget that have not exited yet.
   */
  get stats(): { running: number; submitted: Record<RenderJob['kind'], number>; workers: number; abandoned: number } {
    const running = [...this.pending].filter((p) => p.verdict === null && Atomics.load(p.signal, SIGNAL.started) === 1n).length;
    return { running, submitted: { ...this.submitted }, workers: this.pool.threads.length, abandoned: this.abandoned.size };
  }

  async close(): Promise<void> {
    this.stopWatching();
    await this.pool.close({ force: true });
  }

  private async run(job: RenderJob, budgetMs: number, who: RenderFor): Promise<RenderOutcome> {
    if (this.abandoned.size >= this.config.workers) throw this.busy('render: the renderer is busy; retry later');
    const startNow = this.hasWorkerFor(who.lane);
    const queue = this.waiting[who.lane];
    // piscina's maxQueue does not hold for tasks with an AbortSignal (5.3: they wait in a
    // queue it does not count), so jobs wait here, each lane bounded by `queue` and each
    // account within it by its share.
    if (!startNow && queue.size >= this.config.queue && !this.makeRoom(queue, who.account)) throw this.busy(QUEUE_FULL_MESSAGE);
    const { port1, port2 } = new MessageChannel();
    const p: PendingJob = {
      job,
      who,
      waiting: null,
      budgetMs,
      signal: new BigInt64Array(new SharedArrayBuffer(SIGNAL.length * BigInt64Array.BYTES_PER_ELEMENT)),
      lifeline: port1,
      abort: new AbortController(),
      submittedAt: Date.now(),
      verdict: null,
    };
    this.pending.add(p);
    this.submitted[job.kind]++;
    this.startWatching();
    // Counted as started from the moment a worker is promised to it (by startNext for a job
    // that waited), so no worker is handed out twice.
    let counted = startNow;
    if (startNow) this.started[who.lane]++;
    try {
      if (!startNow) {
        await new Promise<void>((start, refuse) => {
          p.waiting = {
            start: () => {
              counted = true;
              start();
            },
            refuse,
          };
          queue.push(who.account, p);
        });
      }
      return await this.pool.run(
        { job, signal: p.signal, lifeline: port2 },
        { signal: p.abort.signal, transferList: [port2, ...movedBytes(job)] },
      );
    } catch (err) {
      throw this.explain(p, err);
    } finally {
      if (counted) this.started[who.lane]--;
      this.pending.delete(p);
      if (this.pending.size === 0) this.stopWatching();
      if (!this.abandoned.has(p)) port1.close();
      this.startNext();
    }
  }

  private hasWorkerFor(lane: RenderLane): boolean {
    return this.lanes.hasWorkerFor(lane);
  }

  /** Hands free workers to waiting jobs (Lanes.next says in which order). */
  private startNext(): void {
    for (;;) {
      const next = this.lanes.next();
      if (next === undefined) return;
      const waiting = next.waiting;
      next.waiting = null;
      waiting?.start();
    }
  }

  private explain(p: PendingJob, err: unknown): Error {
    if (p.verdict === 'over-budget') return tooExpensive(p.job);
    // Said apart, so a 503 tells whether the pool was full or the machine too busy to run the job.
    if (p.verdict === 'waited-too-long') return this.busy(`render: no renderer was free for ${this.wallLimitMs / 1000} s; retry later`);
    if (p.verdict === 'starved') return this.busy('render: the renderer got too little CPU to finish in time; retry later');
    if (err instanceof Error && QUEUE_FULL.has(err.message)) return this.busy(QUEUE_FULL_MESSAGE);
    // The worker ran out of its V8 heap and was stopped.
    if (err instanceof Error && (err as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY') return tooExpensive(p.job);
    return err instanceof Error ? err : new Error(String(err));
  }

  /**
   * A full lane makes room for `account` by refusing the newest job of the account holding the
   * most places, if that is another account past its share: one account alone may fill the
   * queue (a codes list of thumbnails), yet never keep others out of it.
   */
  private makeRoom(queue: FairQueue<PendingJob>, account: string): boolean {
    const heaviest = queue.heaviest();
    if (!heaviest || heaviest.account === account || heaviest.count <= this.accountShare) return false;
    if (queue.waitingOf(account) >= this.accountShare) return false;
    const displaced = queue.popNewest(heaviest.account);
    displaced?.waiting?.refuse(this.busy(QUEUE_FULL_MESSAGE));
    return displaced !== undefined;
  }

  private busy(message: string): ServiceBusyError {
    return new ServiceBusyError(message, this.retryAfterSeconds);
  }

  private startWatching(): void {
    if (this.watch) return;
    this.watch = setInterval(() => this.checkBudgets(), this.watchEveryMs);
    this.watch.unref();
  }

  private stopWatching(): void {
    if (this.watch) clearInterval(this.watch);
    this.watch = null;
  }

  private checkBudgets(): void {
    const now = Date.now();
    for (const p of this.pending) {
      if (p.verdict !== null) continue;
      const budget = p.budgetMs;
      if (Atomics.load(p.signal, SIGNAL.started) === 0n) {
        // Waiting for a worker is not the job's cost.
        if (now - p.submittedAt > this.wallLimitMs) this.stop(p, 'waited-too-long');
        continue;
      }
      const wallMs = now - Number(Atomics.load(p.signal, SIGNAL.wallMsAtStart));
      const cpuMs = this.cpuMsOf(p) ?? wallMs;
      if (cpuMs > budget) this.stop(p, 'over-budget');
      else if (wallMs > this.wallLimitMs) this.stop(p, 'starved');
    }
  }

  private cpuMsOf(p: PendingJob): number | null {
    const tid = Atomics.load(p.signal, SIGNAL.threadId);
    const atStart = Atomics.load(p.signal, SIGNAL.cpuNsAtStart);
    if (tid === 0n || atStart < 0n) return null;
    const now = threadCpuNs(`/proc/self/task/${tid}`);
    return now < 0n ? null : Number(now - atStart) / 1e6;
  }

  private stop(p: PendingJob, verdict: NonNullable<PendingJob['verdict']>): void {
    p.verdict = verdict;
    if (p.waiting !== null) {
      // Still waiting for a worker: it leaves the queue and is refused.
      this.waiting[p.who.lane].remove(p.who.account, p);
      p.waiting.refuse(new Error(verdict));
      p.waiting = null;
      return;
    }
    if (Atomics.load(p.signal, SIGNAL.started) === 1n) {
      // Its thread may go on inside the rasterizer: count it until it has exited.
      this.abandoned.add(p);
      p.lifeline.once('close', () => this.abandoned.delete(p));
      p.lifeline.unref();
    }
    p.abort.abort(new Error(verdict));
  }
}

function tooExpensive(job: RenderJob): ValidationError {
  if (job.kind === 'logo') return new ValidationError(`${job.field}: the logo is too expensive to draw`);
  if (job.kind === 'batch-body') return new ValidationError('body: is too costly to read');
  if (job.design.customLogoUrl !== null) return new ValidationError(LOGO_TOO_EXPENSIVE);
  if (job.kind === 'pdf') return new ValidationError(`size: the image is too expensive to draw at ${job.widthMm} mm`);
  return new ValidationError(`size: the image is too expensive to draw at ${job.width} px`);
}

/**
 * A batch body's bytes are moved to the worker, not copied: cloning 16 MiB took some 50 ms of the
 * thread that answers short links. Only a buffer that is the whole of its memory, which the caller
 * hands over (batch routes read the body into one of their own), never a slice of Node's pool.
 */
function movedBytes(job: RenderJob): ArrayBuffer[] {
  if (job.kind !== 'batch-body') return [];
  const { buffer, byteOffset, byteLength } = job.bytes;
  return buffer instanceof ArrayBuffer && byteOffset === 0 && byteLength === buffer.byteLength && byteLength > 64 * 1024 ? [buffer] : [];
}
