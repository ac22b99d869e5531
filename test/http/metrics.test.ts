// GET /metrics (METRICS_PORT): the Prometheus text format on a listener of its own, with
// requests by route template, short-link answers by outcome (the fast path included), scans,
// the render pool, the event loop and, on PostgreSQL, the connection pool; never a code, an id
// or an account in a label.
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/metrics/metrics.ts';
import { type MetricsServer, startMetricsServer } from '../../src/metrics/metrics-server.ts';
import { newShortLinkTally } from '../../src/metrics/short-link-tally.ts';
import { ON_POSTGRES } from '../support/databases.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const SLACK = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';

let t: TestApp | null = null;
let scrape: MetricsServer | null = null;
afterEach(async () => {
  await scrape?.close();
  scrape = null;
  await t?.close();
  t = null;
});

/** The value of one sample, e.g. sample(text, 'qrtrack_scans_recorded_total{class="human"}'). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function listening(env: Record<string, string> = {}) {
  t = await makeTestApp({ METRICS_PORT: '0', ...env });
  const metrics = t.services.metrics;
  if (metrics === null) throw new Error('metrics are off');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  scrape = await startMetricsServer(metrics, { port: 0, host: '127.0.0.1' }, (err) => {
    throw err;
  });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  return { app: t, base, metricsUrl: `http://127.0.0.1:${scrape.port}/metrics` };
}

describe('Prometheus metrics', () => {
  it('are off unless METRICS_PORT is set; short-link answers are tallied all the same', async () => {
    t = await makeTestApp();
    expect(t.config.metrics).toBeNull();
    expect(t.services.metrics).toBeNull();
    await t.request({ method: 'GET', url: '/r/nosuchcode' });
    expect(t.services.shortLinkTally.not_found).toBe(1);
  });

  it('count requests by route template, short-link answers by outcome, scans by class, in the text format', async () => {
    const { app, base, metricsUrl } = await listening();
    const key = await app.key();
    const made: { id: string; code: string }[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await app.request({
        method: 'POST',
        url: '/v1/qr',
        key,
        payload: { title: `Code ${i}`, url: `https://example.com/${i}` },
      });
      expect(res.statusCode).toBe(201);
      made.push(res.json().item);
    }
    for (const item of made) expect((await app.request({ method: 'GET', url: `/v1/qr/${item.id}`, key })).statusCode).toBe(200);
    const later = await app.request({
      method: 'POST',
      url: '/v1/qr',
      key,
      payload: { title: 'Later', url: 'https://example.com/later', activatesAt: new Date(Date.now() + 86_400_000).toISOString() },
    });
    const [first, second, gone] = made as [{ code: string; id: string }, { code: string }, { code: string; id: string }];
    await app.request({ method: 'DELETE', url: `/v1/qr/${gone.id}`, key });

    // Through the listening server's fast path, as scanners reach it.
    const get = (path: string, ua = IPHONE) => fetch(`${base}${path}`, { redirect: 'manual', headers: { 'user-agent': ua } });
    expect((await get(`/r/${first.code}`)).status).toBe(302);
    expect((await get(`/r/${first.code}?utm=x`)).status).toBe(302);
    expect((await get(`/r/${second.code}`, SLACK)).status).toBe(302);
    expect((await get('/r/zzzzzzzz')).status).toBe(404);
    expect((await get(`/r/${gone.code}`)).status).toBe(410);
    expect((await get(`/r/${later.json().item.code}`)).status).toBe(404);
    expect((await fetch(`${base}/v1/qr`, { headers: { authorization: 'Bearer nope' } })).status).toBe(401);

    const res = await fetch(metricsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toContain('# TYPE qrtrack_short_link_answers_total counter');
    expect(sample(text, 'qrtrack_short_link_answers_total{outcome="redirect"}')).toBe(3);
    expect(sample(text, 'qrtrack_short_link_answers_total{outcome="not_found"}')).toBe(1);
    expect(sample(text, 'qrtrack_short_link_answers_total{outcome="gone"}')).toBe(1);
    expect(sample(text, 'qrtrack_short_link_answers_total{outcome="scheduled"}')).toBe(1);
    expect(sample(text, 'qrtrack_short_link_answers_total{outcome="password_failed"}')).toBe(0);
    expect(sample(text, 'qrtrack_scans_recorded_total{class="human"}')).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'qrtrack_scans_recorded_total{class="bot"}')).toBe(1);
    expect(sample(text, 'qrtrack_scan_write_failures_total')).toBe(0);
    expect(sample(text, 'qrtrack_scan_batch_write_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'qrtrack_http_request_duration_seconds_count{method="POST",route="/v1/qr",status_class="2xx"}')).toBe(13);
    expect(sample(text, 'qrtrack_http_request_duration_seconds_count{method="GET",route="/v1/qr/:id",status_class="2xx"}')).toBe(12);
    expect(sample(text, 'qrtrack_http_request_duration_seconds_count{method="GET",route="/v1/qr",status_class="4xx"}')).toBe(1);
    expect(sample(text, 'qrtrack_render_queue_depth')).toBe(0);
    expect(sample(text, 'qrtrack_render_workers_busy')).toBe(0);
    expect(sample(text, 'qrtrack_render_workers')).toBe(app.config.render.workers);
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
    expect(text).toMatch(/^process_cpu_seconds_total \d/m);
    if (ON_POSTGRES) {
      expect(sample(text, 'qrtrack_db_pool_connections')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'qrtrack_db_pool_max_connections')).toBe(10);
      expect(text).toMatch(/^qrtrack_db_pool_waiting_requests \d/m);
    } else {
      expect(text).not.toContain('qrtrack_db_pool');
    }

    // Bounded cardinality: no code, item id or account id anywhere, and one series a route.
    for (const item of made) {
      expect(text).not.toContain(item.code);
      expect(text).not.toContain(item.id);
    }
    const accountId = await app.services.keys.findAccountId('acme');
    expect(text).not.toContain(accountId as string);
    const requestSeries = text.split('\n').filter((l) => l.startsWith('qrtrack_http_request_duration_seconds_count{'));
    expect(requestSeries.length).toBeLessThan(10);
  });

  it('count webhook deliveries by result and time them, with no endpoint, account or URL in a label', async () => {
    const { app, metricsUrl } = await listening({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '0.05' });
    const rx = await startReceiver();
    try {
      rx.answer = (_r, i) => (i === 0 ? { status: 500 } : { status: 200 });
      const key = await app.key('acme', 'qr:read,qr:write,webhooks:read,webhooks:write');
      const made = await app.request({ method: 'POST', url: '/v1/webhooks', key, payload: { url: rx.url, events: ['item.created'] } });
      const hookId = made.json().webhook.id as string;
      await app.request({ method: 'POST', url: '/v1/qr', key, payload: { title: 'm', url: 'https://example.com/' } });
      await rx.waitFor(2);
      let text = '';
      await expect
        .poll(async () => {
          text = await (await fetch(metricsUrl)).text();
          return sample(text, 'qrtrack_webhook_deliveries_total{result="success"}');
        })
        .toBe(1);
      expect(sample(text, 'qrtrack_webhook_deliveries_total{result="failure"}')).toBe(1);
      expect(sample(text, 'qrtrack_webhook_delivery_seconds_count{result="success"}')).toBe(1);
      expect(text).not.toContain(hookId);
      expect(text).not.toContain(rx.url);
    } finally {
      await rx.close();
    }
  });

  it('tally each refusal of a dynamic code by its outcome', async () => {
    t = await makeTestApp();
    const app = t;
    const key = await app.key();
    const create = async (extra: object) =>
      (await app.request({ method: 'POST', url: '/v1/qr', key, payload: { title: 'x', url: 'https://example.com/', ...extra } })).json()
        .item as { code: string };
    const scan = (code: string, opts: { method?: 'GET' | 'POST'; payload?: string } = {}) =>
      app.app.inject({
        method: opts.method ?? 'GET',
        url: `/r/${code}`,
        headers: { 'user-agent': IPHONE, ...(opts.payload ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
        payload: opts.payload,
      });
    const locked = await create({ password: 'open sesame' });
    expect((await scan(locked.code)).statusCode).toBe(200);
    expect((await scan(locked.code, { method: 'POST', payload: 'password=wrong-one' })).statusCode).toBe(403);
    expect((await scan(locked.code, { method: 'POST', payload: 'password=open%20sesame' })).statusCode).toBe(303);
    const capped = await create({ maxScans: 1 });
    await scan(capped.code);
    expect((await scan(capped.code)).statusCode).toBe(410);
    const tally = app.services.shortLinkTally;
    expect(tally).toMatchObject({ password_required: 1, password_failed: 1, redirect: 2, capped: 1 });
  });

  it('serve only GET and HEAD /metrics on their port', async () => {
    const { metricsUrl } = await listening();
    expect((await fetch(metricsUrl.replace('/metrics', '/'))).status).toBe(404);
    expect((await fetch(`${metricsUrl}x`)).status).toBe(404);
    expect((await fetch(metricsUrl, { method: 'POST' })).status).toBe(404);
    const head = await fetch(metricsUrl, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect((await fetch(`${metricsUrl}?name[]=x`)).status).toBe(200);
  });

  it('count scans the database refused, and each batch’s write time', async () => {
    const metrics = createMetrics({
      shortLinks: newShortLinkTally(),
      renderLoad: () => ({ queued: 3, busy: 1, abandoned: 0, workers: 1 }),
      pool: null,
    });
    const scan = { itemId: 'i', accountId: 'a', scannedAt: new Date().toISOString(), isBot: false, device: 'mobile' };
    const batch = [1, 2, 3].map(() => ({ ...scan, os: null, browser: null, country: null, referrer: null, visitorHash: 'v' }));
    metrics.scanWrites.failed(batch, 0.002);
    metrics.scanWrites.written(batch.slice(0, 1), 0.001);
    const text = await metrics.exposition();
    expect(sample(text, 'qrtrack_scan_write_failures_total')).toBe(3);
    expect(sample(text, 'qrtrack_scans_recorded_total{class="human"}')).toBe(1);
    expect(sample(text, 'qrtrack_scan_batch_write_seconds_count')).toBe(2);
    expect(sample(text, 'qrtrack_render_queue_depth')).toBe(3);
  });

  it('show the short links cache within SHORT_LINK_CACHE_MB, with its hits and misses', async () => {
    const { app, base, metricsUrl } = await listening({ SHORT_LINK_CACHE_MB: '1' });
    const key = await app.key();
    // 25 rules of 50 values each: some 60 KB a code by the cache's estimate, so 1 MiB holds about 16.
    const rules = Array.from({ length: 25 }, (_, r) => ({
      conditions: [{ type: 'query', op: 'in', key: `k${r}`, values: Array.from({ length: 50 }, (_, v) => `value-${v}`) }],
      destination: `https://example.com/rule/${r}`,
    }));
    const codes: string[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await app.request({
        method: 'POST',
        url: '/v1/qr',
        key,
        payload: { title: `Ruled ${i}`, url: 'https://example.com/', rules },
      });
      expect(res.statusCode).toBe(201);
      codes.push(res.json().item.code);
    }
    for (const code of codes)
      expect((await fetch(`${base}/r/${code}?k3=value-7`, { redirect: 'manual' })).headers.get('location')).toBe(
        'https://example.com/rule/3?k3=value-7',
      );
    const last = codes.at(-1) as string;
    expect((await fetch(`${base}/r/${last}`, { redirect: 'manual' })).status).toBe(302);
    const text = await (await fetch(metricsUrl)).text();
    const bytes = sample(text, 'qrtrack_short_link_cache_bytes') as number;
    const entries = sample(text, 'qrtrack_short_link_cache_entries') as number;
    expect(bytes).toBeGreaterThan(512 * 1024);
    expect(bytes).toBeLessThanOrEqual(1024 * 1024);
    expect(entries).toBeGreaterThan(5);
    expect(entries).toBeLessThan(30);
    expect(sample(text, 'qrtrack_short_link_cache_lookups_total{result="miss"}')).toBeGreaterThanOrEqual(30);
    expect(sample(text, 'qrtrack_short_link_cache_lookups_total{result="hit"}')).toBeGreaterThanOrEqual(1);
  });
});
