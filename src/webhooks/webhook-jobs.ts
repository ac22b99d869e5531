// The webhooks' work beside the requests, started and stopped with the app: the delivery worker,
// the scan log's feed (scan.created, item.capped), the expiry check (item.expired) and the
// delivery log's purge. Each catches its own errors: a failing round is logged and tried again.
import type { Db } from '../db/database.ts';
import type { WebhookDeliveriesRepository } from '../db/webhooks/deliveries-repository.ts';
import type { WebhookEndpointsRepository } from '../db/webhooks/endpoints-repository.ts';
import { tellExpiringKeys } from '../db/webhooks/key-events.ts';
import { SCAN_SLICE, feedScanEvents, tellExpiredItems } from '../db/webhooks/scan-events.ts';
import { DeliveryWorker, type DeliveryWorkerOptions, MAX_IN_FLIGHT } from './delivery-worker.ts';
import { SenderPool } from './sender-pool.ts';

const EXPIRY_CHECK_MS = 30_000;
const PURGE_MS = 60 * 60 * 1000;

export class WebhookJobs {
  readonly worker: DeliveryWorker;
  private timers: NodeJS.Timeout[] = [];
  private feeding = false;
  private stopped = true;
  private readonly senders: SenderPool | null;

  constructor(
    private readonly db: Db,
    private readonly deliveries: WebhookDeliveriesRepository,
    endpoints: WebhookEndpointsRepository,
    private readonly options: DeliveryWorkerOptions,
  ) {
    // Signing and sending in a thread of their own unless the caller sends (docs/performance.md).
    this.senders = options.send ? null : new SenderPool(options.maxInFlight ?? MAX_IN_FLIGHT);
    if (this.senders) options.send = this.senders.send;
    // The worker reads onError from these options when it fails, so one set reaches both.
    this.worker = new DeliveryWorker(deliveries, endpoints, options);
  }

  start(onError?: (err: unknown) => void): void {
    if (onError) this.options.onError = onError;
    this.stopped = false;
    this.worker.start();
    const every = (ms: number, job: () => Promise<unknown>) => {
      const t = setInterval(() => void job().catch((err: unknown) => this.options.onError?.(err)), ms);
      t.unref();
      this.timers.push(t);
    };
    every(this.options.pollMs, () => this.feed());
    every(EXPIRY_CHECK_MS, () => this.checkExpiries());
    every(PURGE_MS, () => this.deliveries.purge());
  }

  /**
   * Tells the scans the roll-ups have applied, slice after full slice; a slice short of full has
   * caught up, and what the roll-ups apply next waits for the next turn. The turn is the batch's
   * window: chasing the roll-ups' every step made messages of a few scans under load.
   */
  async feed(): Promise<void> {
    if (this.feeding) return;
    this.feeding = true;
    try {
      let moved = 0;
      for (;;) {
        const n = await feedScanEvents(this.db);
        moved += n;
        if (n < SCAN_SLICE || this.stopped) break;
        await new Promise((r) => setImmediate(r));
      }
      if (moved > 0) this.worker.nudge();
    } finally {
      this.feeding = false;
    }
  }

  async checkExpiries(): Promise<void> {
    const told = (await tellExpiredItems(this.db)) + (await tellExpiringKeys(this.db));
    if (told > 0) this.worker.nudge();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    await this.worker.stop();
    await this.senders?.close();
  }
}
