// Sends the outbox's messages, in this process, beside the requests. Bounded per endpoint: at
// most `perEndpointInFlight` attempts at once and `perEndpointPerSecond` started a second (a
// token bucket), and at most `maxInFlight` in all; the rest stays queued in the database, never
// in memory. Several processes may run it (PostgreSQL): claims never overlap (deliveries-repository.ts).
import type { WebhookDeliveriesRepository, ClaimedMessage, RecordedAttempt } from '../db/webhooks/deliveries-repository.ts';
import type { WebhookEndpointsRepository } from '../db/webhooks/endpoints-repository.ts';
import type { EndpointTarget } from '../domain/webhooks/endpoint.ts';
import type { WebhookDeliveryObserver } from '../metrics/metrics.ts';
import type { SendResult } from './send-webhook.ts';
import { type Sender, signAndSend } from './sign-and-send.ts';

export interface DeliveryWorkerOptions {
  allowPrivate: boolean;
  retryDelaysMs: readonly number[];
  pollMs: number;
  timeoutMs: number;
  perEndpointInFlight?: number;
  perEndpointPerSecond?: number;
  maxInFlight?: number;
  /** Endpoints looked at per round (ENDPOINTS_PER_ROUND; tests take fewer). */
  endpointsPerRound?: number;
  /** The clock (tests move it). */
  now?: () => number;
  metrics?: WebhookDeliveryObserver | null;
  onError?: (err: unknown) => void;
  /**
   * Signs and sends one attempt: on this thread by default (signAndSend); WebhookJobs gives the
   * sender thread's (sender-pool.ts) unless one is given.
   */
  send?: Sender;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Attempts in flight at most, all endpoints together. */
export const MAX_IN_FLIGHT = 200;

/** A nudge's round waits this long, for the nudges after it. */
const NUDGE_MS = 20;

/**
 * Attempts that end within this long of each other are recorded in one transaction: at a hot
 * campaign's pace, a commit per attempt was a good part of what webhooks cost the thread that
 * answers short links (SQLite).
 */
const RECORD_MS = 10;

/** A claim's lease outlasts the attempt's time-out by this much. */
const LEASE_SLACK_MS = 5000;

/** Endpoints looked at per round; more are served in turn over the following rounds. */
const ENDPOINTS_PER_ROUND = 100;

export class DeliveryWorker {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private stopped = true;
  private again = false;
  /** A round is due within NUDGE_MS. */
  private soon = false;
  private readonly inFlight = new Map<string, number>();
  private total = 0;
  private readonly buckets = new Map<string, Bucket>();
  private readonly sending = new Set<Promise<void>>();
  private readonly perEndpoint: number;
  private readonly perSecond: number;
  private readonly maxInFlight: number;
  private readonly now: () => number;
  /** The last endpoint a round looked at: the next round starts after it. */
  private lastEndpoint: string | null = null;
  /** Ended attempts waiting for their record, and the record's turn. */
  private ended: RecordedAttempt[] = [];
  private recording: Promise<void> | null = null;

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly options: DeliveryWorkerOptions,
  ) {
    this.perEndpoint = options.perEndpointInFlight ?? 10;
    this.perSecond = options.perEndpointPerSecond ?? 50;
    this.maxInFlight = options.maxInFlight ?? MAX_IN_FLIGHT;
    this.now = options.now ?? Date.now;
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /**
   * Looks for due messages soon (after an enqueue in this process, or an attempt's end). Nudges
   * within NUDGE_MS make one round: a round per finished attempt was a few queries each on the
   * thread that answers short links.
   */
  nudge(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else if (!this.soon) this.schedule(NUDGE_MS);
  }

  /** Stops claiming; waits up to `graceMs` for attempts in flight (the others' leases run out). */
  async stop(graceMs = 5000): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    let wait: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.sending]), new Promise((r) => (wait = setTimeout(r, graceMs)))]);
    clearTimeout(wait);
  }

  /** One round: claims what may be sent now and starts sending it. */
  async round(): Promise<number> {
    const now = this.now();
    const due = await this.deliveries.dueEndpoints(new Date(now), this.options.endpointsPerRound ?? ENDPOINTS_PER_ROUND, this.lastEndpoint);
    if (due.length === 0) return 0;
    this.lastEndpoint = due[due.length - 1] as string;
    const targets = await this.endpoints.targets(due, now);
    let started = 0;
    for (const endpointId of due) {
      const target = targets.get(endpointId);
      if (!target) continue;
      const slots = Math.min(
        this.perEndpoint - (this.inFlight.get(endpointId) ?? 0),
        this.tokens(endpointId, now),
        this.maxInFlight - this.total,
      );
      if (slots <= 0) continue;
      const claimed = await this.deliveries.claim(endpointId, slots, new Date(now), this.options.timeoutMs + LEASE_SLACK_MS);
      // A scan batch's body is made as it is claimed (in a read worker, which may be busy): an
      // attempt that could outlast its lease is given back, never sent beside a second claim.
      if (this.now() - now > LEASE_SLACK_MS / 2) {
        for (const message of claimed) await this.deliveries.release(message, new Date(this.now()));
        break;
      }
      this.take(endpointId, claimed.length);
      for (const message of claimed) {
        started++;
        this.launch(target, message);
      }
    }
    return started;
  }

  private launch(target: EndpointTarget, message: ClaimedMessage): void {
    this.inFlight.set(target.id, (this.inFlight.get(target.id) ?? 0) + 1);
    this.total++;
    const p = this.attempt(target, message)
      .catch((err: unknown) => this.options.onError?.(err))
      .finally(() => {
        this.sending.delete(p);
        this.total--;
        const left = (this.inFlight.get(target.id) ?? 1) - 1;
        if (left === 0) this.inFlight.delete(target.id);
        else this.inFlight.set(target.id, left);
        this.nudge();
      });
    this.sending.add(p);
  }

  private async attempt(target: EndpointTarget, message: ClaimedMessage): Promise<void> {
    if (message.body === null) {
      await this.deliveries.drop(message, 'not sent: its scans were forgotten before it could be', new Date(this.now()));
      return;
    }
    const send = this.options.send ?? signAndSend;
    const result: SendResult = await send({
      url: target.url,
      secrets: target.secrets,
      id: message.id,
      timestamp: Math.floor(this.now() / 1000),
      body: message.body,
      allowPrivate: this.options.allowPrivate,
      timeoutMs: this.options.timeoutMs,
    });
    this.options.metrics?.delivered(result.ok ? 'success' : 'failure', result.durationMs / 1000);
    await this.record({ message, outcome: result, now: new Date(this.now()) });
  }

  /**
   * Records the attempt with the others that end within RECORD_MS; settles once that record is
   * written or has failed (reported once for the batch; the claims' leases then run out and the
   * messages are sent again).
   */
  private record(attempt: RecordedAttempt): Promise<void> {
    this.ended.push(attempt);
    this.recording ??= new Promise<void>((resolve) => setTimeout(resolve, RECORD_MS)).then(() => {
      const batch = this.ended;
      this.ended = [];
      this.recording = null;
      return this.deliveries.recordAttempts(batch, this.options.retryDelaysMs).catch((err: unknown) => this.options.onError?.(err));
    });
    return this.recording;
  }

  /** Whole tokens the endpoint's bucket holds now. */
  private tokens(endpointId: string, now: number): number {
    const b = this.buckets.get(endpointId) ?? { tokens: this.perSecond, at: now };
    b.tokens = Math.min(this.perSecond, b.tokens + ((now - b.at) / 1000) * this.perSecond);
    b.at = now;
    this.buckets.set(endpointId, b);
    if (this.buckets.size > 10_000) this.buckets.clear();
    return Math.floor(b.tokens);
  }

  private take(endpointId: string, n: number): void {
    const b = this.buckets.get(endpointId);
    if (b) b.tokens -= n;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.soon = ms <= NUDGE_MS;
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    this.timer = null;
    this.soon = false;
    if (this.running || this.stopped) return;
    this.running = true;
    this.again = false;
    let started = 0;
    try {
      started = await this.round();
    } catch (err) {
      this.options.onError?.(err);
    } finally {
      this.running = false;
    }
    // More may be due at once (a backlog): go on soon; else at the next poll. A bucket short of
    // tokens refills within a second.
    this.schedule(this.again || started > 0 ? NUDGE_MS : this.options.pollMs);
  }
}
