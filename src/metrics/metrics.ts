// Prometheus metrics (METRICS_PORT; docs/operations.md#metrics). prom-client, not a hand-written
// exposition: its histograms, the process and event-loop metrics every Node dashboard expects,
// and the text format's escaping come tested, for a small package with two small dependencies.
// Each registry is its own (never prom-client's global one), so two apps in one process do not
// mix. Labels are closed lists or route templates: no code, id or account ever becomes a label.
// What the redirect feeds is plain numbers read when scraped (short-link-tally.ts).
import type pg from 'pg';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ScanWriteObserver } from '../db/scans/scan-writer.ts';
import type { ShortLinkCacheStats } from '../db/short-links/short-link-cache.ts';
import type { ScanEvent } from '../domain/scans/scan-batch.ts';
import { SHORT_LINK_OUTCOMES, type ShortLinkTally } from './short-link-tally.ts';

export interface MetricSources {
  shortLinks: ShortLinkTally;
  /** The render pool's load (RenderPool.load), read when scraped. */
  renderLoad(): { queued: number; busy: number; abandoned: number; workers: number };
  /** The PostgreSQL pool; null on SQLite. */
  pool: pg.Pool | null;
  /** The scan log's lag behind the roll-ups (rollup-aggregator.ts), read when scraped. */
  rollupLag?: () => { scans: number; seconds: number };
  /** The short links' cache in this process, read when scraped. */
  shortLinkCache?: () => ShortLinkCacheStats;
}

export interface Metrics {
  /** A request answered through Fastify: its route template (undefined: no route matched). */
  observeRequest(method: string, route: string | undefined, status: number, seconds: number): void;
  readonly scanWrites: ScanWriteObserver;
  /** Webhook deliveries by result (no endpoint or account label). */
  readonly webhooks: WebhookDeliveryObserver;
  /** The text exposition, and its content type. */
  exposition(): Promise<string>;
  readonly contentType: string;
}

/** success: a 2xx; failure: any other answer, a time-out, or a refused destination. */
export type WebhookResult = 'success' | 'failure';

export interface WebhookDeliveryObserver {
  delivered(result: WebhookResult, seconds: number): void;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;

export function createMetrics(sources: MetricSources): Metrics {
  const registry = new Registry();
  const registers = [registry];
  // Process CPU, memory, handles, GC, and the event loop's delay (nodejs_eventloop_lag_*).
  collectDefaultMetrics({ register: registry });

  const requests = new Histogram({
    name: 'qrtrack_http_request_duration_seconds',
    help: 'Requests answered through the API, web app and pages, by route template (short links on the fast path: qrtrack_short_link_answers_total)',
    labelNames: ['method', 'route', 'status_class'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });

  const answers: Counter = new Counter({
    name: 'qrtrack_short_link_answers_total',
    help: 'Answers of /r/{code} by outcome',
    labelNames: ['outcome'],
    registers,
    // Set from the tally on each scrape: the counter is the tally's number, never incremented here.
    collect() {
      answers.reset();
      for (const outcome of SHORT_LINK_OUTCOMES) answers.inc({ outcome }, sources.shortLinks[outcome]);
    },
  });

  const scans = new Counter({
    name: 'qrtrack_scans_recorded_total',
    help: 'Scans committed to the database, by class (bot: bots and link previews)',
    labelNames: ['class'],
    registers,
  });
  const lost = new Counter({
    name: 'qrtrack_scan_write_failures_total',
    help: 'Scans the database refused to store (the visitor was still answered)',
    registers,
  });
  const batchSeconds = new Histogram({
    name: 'qrtrack_scan_batch_write_seconds',
    help: 'Time to commit one batch of scans (one transaction on SQLite, one statement on PostgreSQL)',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers,
  });
  for (const c of ['human', 'bot']) scans.inc({ class: c }, 0);

  const deliveries = new Counter({
    name: 'qrtrack_webhook_deliveries_total',
    help: 'Webhook delivery attempts by result (success: a 2xx within the time-out)',
    labelNames: ['result'],
    registers,
  });
  const deliverySeconds = new Histogram({
    name: 'qrtrack_webhook_delivery_seconds',
    help: 'Time from sending a webhook to its answer (or the time-out)',
    labelNames: ['result'],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  for (const result of ['success', 'failure']) deliveries.inc({ result }, 0);

  /** A gauge whose value is read when scraped. */
  const readGauge = (name: string, help: string, read: () => number) => {
    const g: Gauge = new Gauge({
      name,
      help,
      registers,
      collect() {
        g.set(read());
      },
    });
  };

  const load = () => sources.renderLoad();
  readGauge('qrtrack_render_queue_depth', 'Images waiting for a render worker', () => load().queued);
  readGauge('qrtrack_render_workers_busy', 'Render workers drawing an image now', () => load().busy);
  readGauge('qrtrack_render_workers', 'Render workers configured (RENDER_WORKERS)', () => load().workers);
  readGauge('qrtrack_render_abandoned_threads', 'Threads of renders stopped over budget that have not exited yet', () => load().abandoned);

  const rollupLag = sources.rollupLag;
  if (rollupLag !== undefined) {
    readGauge(
      'qrtrack_scan_log_lag_scans',
      'Scans logged that the aggregator has not applied to the roll-ups yet',
      () => rollupLag().scans,
    );
    readGauge(
      'qrtrack_scan_log_lag_seconds',
      'How long the roll-ups have been behind the scan log (0: caught up)',
      () => rollupLag().seconds,
    );
  }

  const cacheStats = sources.shortLinkCache;
  if (cacheStats !== undefined) {
    // Whether SHORT_LINK_CACHE_MB fits the codes being scanned: the hit ratio and the bytes held.
    const lookups: Counter = new Counter({
      name: 'qrtrack_short_link_cache_lookups_total',
      help: 'Short link lookups by result (hit: answered from memory; miss: read from the database)',
      labelNames: ['result'],
      registers,
      collect() {
        const s = cacheStats();
        lookups.reset();
        lookups.inc({ result: 'hit' }, s.hits);
        lookups.inc({ result: 'miss' }, s.misses);
      },
    });
    readGauge(
      'qrtrack_short_link_cache_entries',
      'Codes held in the short links cache (unknown codes included)',
      () => cacheStats().entries,
    );
    readGauge(
      'qrtrack_short_link_cache_bytes',
      'Estimated heap held by the short links cache (bounded by SHORT_LINK_CACHE_MB)',
      () => cacheStats().bytes,
    );
  }

  const pool = sources.pool;
  if (pool !== null) {
    readGauge('qrtrack_db_pool_connections', 'PostgreSQL connections open in the pool', () => pool.totalCount);
    readGauge('qrtrack_db_pool_idle_connections', 'PostgreSQL connections open and idle', () => pool.idleCount);
    readGauge('qrtrack_db_pool_waiting_requests', 'Queries waiting for a free connection', () => pool.waitingCount);
    readGauge('qrtrack_db_pool_max_connections', 'The pool’s size limit', () => pool.options.max ?? 10);
  }

  const count = (batch: readonly ScanEvent[]) => {
    let bots = 0;
    for (const s of batch) if (s.isBot) bots++;
    return { bots, humans: batch.length - bots };
  };

  return {
    observeRequest(method, route, status, seconds) {
      const statusClass = STATUS_CLASSES[Math.floor(status / 100) - 1] ?? '5xx';
      requests.observe({ method: METHODS.has(method) ? method : 'OTHER', route: route ?? 'unmatched', status_class: statusClass }, seconds);
    },
    scanWrites: {
      written(batch, seconds) {
        const { bots, humans } = count(batch);
        if (humans > 0) scans.inc({ class: 'human' }, humans);
        if (bots > 0) scans.inc({ class: 'bot' }, bots);
        batchSeconds.observe(seconds);
      },
      failed(batch, seconds) {
        lost.inc(batch.length);
        batchSeconds.observe(seconds);
      },
    },
    webhooks: {
      delivered(result, seconds) {
        deliveries.inc({ result });
        deliverySeconds.observe({ result }, seconds);
      },
    },
    exposition: () => registry.metrics(),
    contentType: registry.contentType,
  };
}
