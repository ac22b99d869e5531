// On SQLite the heavy reads (item stats, the overview, sparklines, exports) run in read workers,
// each with a read-only connection of its own, so they never hold the thread that answers short
// links: their answers come from there, a scan answered before a read is in it, and a flood of
// reads is refused with 503 rather than queued without end. PostgreSQL reads where it always did.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { exportCodes } from '../../src/bulk/export-codes.ts';
import { QrItemsRepository } from '../../src/db/qr-items/qr-items-repository.ts';
import { AccountStatsRepository } from '../../src/db/stats/account-stats-repository.ts';
import { StatsRepository } from '../../src/db/stats/stats-repository.ts';
import { ON_POSTGRES } from '../support/databases.ts';
import { longestGapDuring } from '../support/event-loop-gap.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const QUARTER_MS = 900_000;

async function createCodes(t: TestApp, key: string, n: number, prefix: string): Promise<{ id: string; code: string }[]> {
  const made: { id: string; code: string }[] = [];
  for (let from = 0; from < n; from += 500) {
    const items = Array.from({ length: Math.min(500, n - from) }, (_, i) => ({
      title: `${prefix} ${from + i}`,
      contentType: 'url',
      payload: `https://reads.example/${prefix}/${from + i}`,
    }));
    const res = await t.request({ method: 'POST', url: '/v1/qr/batch', key, payload: { items } });
    expect(res.statusCode, res.body).toBe(201);
    for (const { item } of res.json().items as { item: { id: string; code: string } }[]) made.push({ id: item.id, code: item.code });
  }
  return made;
}

/** Every quarter hour of the last `days` days scanned, for each item: the roll-ups of busy codes. */
async function busyBuckets(t: TestApp, itemIds: readonly string[], days: number): Promise<void> {
  const last = Math.floor(Date.now() / QUARTER_MS);
  const first = last - days * 96 + 1;
  for (const id of itemIds) {
    await sql`with recursive b(bucket) as (select ${sql.lit(first)} union all select bucket + 1 from b where bucket < ${sql.lit(last)})
      insert into scan_buckets (item_id, bucket, scans, unique_scans, bot_scans) select ${id}, bucket, 3, 2, 0 from b`.execute(t.db.kysely);
  }
}

/** The jobs the read workers have answered so far, all kinds together. */
function workerJobs(t: TestApp): number {
  const pool = t.services.reads.pool;
  if (pool === null) throw new Error('no read pool');
  return Object.values(pool.stats.completed).reduce((a, b) => a + b, 0);
}

describe.skipIf(ON_POSTGRES)('read workers (SQLite)', () => {
  let t: TestApp;
  let key: string;
  let busy: { id: string; code: string };
  let page: { id: string; code: string }[];

  beforeAll(async () => {
    t = await makeTestApp();
    key = await t.key('reader');
    page = await createCodes(t, key, 200, 'busy');
    busy = page[0]!;
    await busyBuckets(t, [busy.id], 90);
    await busyBuckets(
      t,
      page.slice(1).map((c) => c.id),
      14,
    );
  }, 120_000);
  afterAll(() => t.close());

  it('answers a 90-day stats read of a busy code and a 200-code sparkline page from the workers, never from this thread', async () => {
    const mainThreadReads = [
      vi.spyOn(QrItemsRepository.prototype, 'list'),
      vi.spyOn(StatsRepository.prototype, 'localDays'),
      vi.spyOn(StatsRepository.prototype, 'localDaysOfItems'),
      vi.spyOn(StatsRepository.prototype, 'dims'),
      vi.spyOn(AccountStatsRepository.prototype, 'topCodes'),
    ];
    try {
      // Neither the worker's start (from the sources, its bundling too) nor the routes' first, cold run is what is measured.
      await Promise.all([
        t.request({ method: 'GET', url: `/v1/qr/${page[1]!.id}/stats?days=90`, key }),
        t.request({ method: 'GET', url: '/v1/qr?limit=200&include=sparkline', key }),
        t.request({ method: 'GET', url: '/v1/stats?days=90', key }),
      ]);
      const before = { ...t.services.reads.pool!.stats.completed };
      const { result, longestGapMs } = await longestGapDuring(() =>
        Promise.all([
          t.request({ method: 'GET', url: `/v1/qr/${busy.id}/stats?days=90`, key }),
          t.request({ method: 'GET', url: '/v1/qr?limit=200&include=sparkline', key }),
          t.request({ method: 'GET', url: '/v1/stats?days=90', key }),
        ]),
      );
      const [stats, list, overview] = result;
      expect(stats.statusCode, stats.body).toBe(200);
      expect(list.statusCode, list.body).toBe(200);
      expect(overview.statusCode, overview.body).toBe(200);
      // 90 days of quarter hours, 3 scans each: the whole range was read (less today's rest).
      const daily = stats.json().daily as { scans: number }[];
      expect(daily).toHaveLength(90);
      expect(daily.reduce((n, d) => n + d.scans, 0)).toBeGreaterThan(89 * 96 * 3);
      const series = list.json().sparklines.series as { id: string; scans: number[] }[];
      expect(series).toHaveLength(200);
      expect(series.every((s) => s.scans.at(-2) === 96 * 3)).toBe(true);
      const after = t.services.reads.pool!.stats.completed;
      // The list page and its sparklines are one job, read in one snapshot.
      expect({
        itemStats: after.itemStats - before.itemStats,
        listPage: after.listPage - before.listPage,
        sparklines: after.sparklines - before.sparklines,
        accountStats: after.accountStats - before.accountStats,
      }).toEqual({ itemStats: 1, listPage: 1, sparklines: 0, accountStats: 1 });
      for (const spy of mainThreadReads) expect(spy, spy.getMockName()).not.toHaveBeenCalled();
      // Measured, not asserted (timings belong in the benches): what the reads left this thread.
      console.info(`read workers: the longest gap of this thread's event loop during the reads was ${longestGapMs.toFixed(1)} ms`);
    } finally {
      for (const spy of mainThreadReads) spy.mockRestore();
    }
  });

  it('has every scan answered before a stats read in that read, scan after scan', async () => {
    const [code] = await createCodes(t, key, 1, 'fresh');
    const overview = async () =>
      ((await t.request({ method: 'GET', url: '/v1/stats', key })).json() as { totals: { scansInRange: number } }).totals.scansInRange;
    const before = await overview();
    for (let i = 1; i <= 25; i++) {
      const scan = await t.app.inject({
        method: 'GET',
        url: `/r/${code!.code}`,
        remoteAddress: '192.0.2.7',
        headers: { 'user-agent': IPHONE },
      });
      expect(scan.statusCode).toBe(302);
      const [stats, list, account] = await Promise.all([
        t.request({ method: 'GET', url: `/v1/qr/${code!.id}/stats`, key }),
        t.request({ method: 'GET', url: '/v1/qr?limit=1&include=sparkline', key }),
        overview(),
      ]);
      const s = stats.json() as { totals: { scans: number; scansInRange: number }; daily: { scans: number }[]; recent: unknown[] };
      expect([s.totals.scans, s.totals.scansInRange, s.daily.at(-1)!.scans], `after scan ${i}`).toEqual([i, i, i]);
      expect(s.recent, `after scan ${i}`).toHaveLength(Math.min(i, 20));
      expect(list.json().sparklines.series[0].scans.at(-1), `after scan ${i}`).toBe(i);
      expect(account, `after scan ${i}`).toBe(before + i);
    }
  });

  it('exports a file of several worker pages the same as reading it on this thread', async () => {
    const exporter = await t.key('exporter');
    await createCodes(t, exporter, 1_200, 'exported');
    const accountId = await t.services.keys.ensureAccount('exporter');
    const jobs = workerJobs(t);
    for (const format of ['csv', 'json'] as const) {
      const res = await t.request({ method: 'GET', url: `/v1/qr/export?format=${format}`, key: exporter });
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      let here = '';
      for await (const piece of exportCodes(t.db, accountId, {}, format, t.services.addresses.table())) here += piece;
      expect(res.body === here, `${format} differs`).toBe(true);
      if (format === 'json') expect((JSON.parse(res.body) as { items: unknown[] }).items).toHaveLength(1_200);
    }
    // Three pages of each file at the most.
    expect(workerJobs(t) - jobs).toBe(6);
  });
});

describe.skipIf(ON_POSTGRES)('a bounded read queue (SQLite)', () => {
  let t: TestApp;

  beforeAll(async () => {
    // One worker, four places in a lane, one of them each account's own when others need them.
    t = await makeTestApp({ READ_WORKERS: '1', READ_QUEUE: '4', READ_WAIT_MS: '60000' });
  });
  afterAll(() => t.close());

  it("refuses one account's flood of reads with 503 and Retry-After, and still answers another account's read", async () => {
    const flooder = await t.key('flooder');
    const [mine] = await createCodes(t, flooder, 1, 'flood');
    const neighbour = await t.key('neighbour');
    const [theirs] = await createCodes(t, neighbour, 1, 'theirs');
    const flood = Array.from({ length: 12 }, () => t.request({ method: 'GET', url: `/v1/qr/${mine!.id}/stats?days=90`, key: flooder }));
    // Sent once the flood has filled the queue (its first read still starts the worker).
    await new Promise((resolve) => setImmediate(resolve));
    const other = await t.request({ method: 'GET', url: `/v1/qr/${theirs!.id}/stats`, key: neighbour });
    const answers = await Promise.all(flood);
    expect(other.statusCode, other.body).toBe(200);
    const refused = answers.filter((r) => r.statusCode === 503);
    expect(answers.filter((r) => r.statusCode === 200).length + refused.length).toBe(12);
    expect(refused.length).toBeGreaterThanOrEqual(12 - 1 - 4);
    for (const r of refused) {
      expect(r.headers['retry-after']).toMatch(/^\d+$/);
      expect(r.json()).toEqual({ error: expect.stringMatching(/^reads: /) });
    }
  });
});
