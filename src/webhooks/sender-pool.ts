// Signing and sending off the thread that answers short links. A message of 1,000 scans is some
// 400 KB: its HMAC (once per secret), its encoding and its writes to the socket, times the
// endpoints, were the part of webhooks' cost on the main thread that grows with the scans
// (docs/performance.md). One thread, many attempts at once (they wait on the network); it yields
// the CPU to the main thread (Linux nice), so under a saturating load deliveries lag, queued in
// the database, rather than the redirect. Nothing in flight is held here beyond the delivery
// worker's bounds (maxInFlight).
import { Piscina } from 'piscina';
import { workerFile } from '../worker-bundle.ts';
import type { SendResult } from './send-webhook.ts';
import type { SendJob } from './sign-and-send.ts';

/** Below the main thread, above nothing else of ours. */
const SENDER_NICE = 5;
const SENDER_HEAP = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 };

export class SenderPool {
  /** Made at the first attempt: a process that sends nothing (the CLI, most tests) starts no thread. */
  private pool: Piscina<SendJob, SendResult> | null = null;

  constructor(private readonly maxInFlight: number) {}

  readonly send = (job: SendJob): Promise<SendResult> => {
    this.pool ??= this.start();
    return this.pool.run(job);
  };

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.close({ force: true });
  }

  private start(): Piscina<SendJob, SendResult> {
    return new Piscina({
      filename: workerFile('webhook-sender'),
      execArgv: [],
      minThreads: 0,
      maxThreads: 1,
      concurrentTasksPerWorker: this.maxInFlight,
      idleTimeout: 60_000,
      resourceLimits: SENDER_HEAP,
      niceIncrement: SENDER_NICE,
      atomics: 'disabled',
    });
  }
}
