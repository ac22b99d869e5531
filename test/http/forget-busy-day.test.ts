// Forgetting part of a busy day on SQLite: the day's raw scans are read and the plan made in a
// read worker while the aggregator is held, so the thread that answers short links only runs the
// plan's writes (what is forgotten), not a read of the whole day; and the roll-ups still equal
// the log afterwards, with or without read workers. PostgreSQL forgets in its own transaction
// (forget-scans.test.ts covers both databases).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeedingWriter } from '../../src/db/scans/scan-writer.ts';
import type { ScanEvent } from '../../src/domain/scans/scan-batch.ts';
import { ON_POSTGRES } from '../support/databases.ts';
import { longestGapDuring } from '../support/event-loop-gap.ts';
import { expectedRollups, storedRollups } from '../support/rollup-check.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

const DAY = 86_400_000;

/** `count` scans spread over the UTC day `daysAgo` days back, 3,000 visitors, every tenth a bot. */
function busyDay(itemId: string, accountId: string, daysAgo: number, count: number): ScanEvent[] {
  const midnight = Math.floor(Date.now() / DAY) * DAY - daysAgo * DAY;
  return Array.from({ length: count }, (_, i) => ({
    itemId,
    accountId,
    scannedAt: new Date(midnight + Math.floor(((i + 0.5) * DAY) / count)).toISOString(),
    isBot: i % 10 === 9,
    device: i % 2 ? 'mobile' : 'desktop',
    os: i % 3 ? 'iOS' : 'Android',
    browser: 'Safari',
    country: i % 4 ? 'DE' : 'FR',
    referrer: i % 7 ? null : 'news.example',
    visitorHash: `v${i % 3000}`,
  }));
}

async function setUp(env: Record<string, string>, count: number) {
  const t = await makeTestApp(env);
  const key = await t.key('busy');
  const accountId = await t.services.keys.ensureAccount('busy');
  const res = await t.request({ method: 'POST', url: '/v1/qr', key, payload: { title: 'busy', url: 'https://example.com/busy' } });
  expect(res.statusCode, res.body).toBe(201);
  const id = (res.json().item as { id: string }).id;
  const writer = createSeedingWriter(t.db);
  await Promise.all(busyDay(id, accountId, 2, count).map((s) => writer.record(s)));
  await writer.drain();
  return { t, key, id };
}

async function expectRollupsEqualLog(t: TestApp) {
  const expected = await expectedRollups(t.db);
  const stored = await storedRollups(t.db);
  for (const table of Object.keys(expected.snapshot)) expect(stored[table], table).toEqual(expected.snapshot[table]);
}

/** One hour (01:00–02:00 UTC) of the day two days back. */
function hourOfBusyDay(): string {
  const day = new Date(Math.floor(Date.now() / DAY) * DAY - 2 * DAY).toISOString().slice(0, 10);
  return `from=${encodeURIComponent(`${day}T01:00:00Z`)}&to=${encodeURIComponent(`${day}T02:00:00Z`)}`;
}

describe.skipIf(ON_POSTGRES)('forgetting an hour of a busy day (SQLite, read workers)', () => {
  const COUNT = 48_000;
  let s: Awaited<ReturnType<typeof setUp>>;
  beforeAll(async () => {
    s = await setUp({}, COUNT);
  }, 120_000);
  afterAll(() => s.t.close());

  it('runs only the forgotten scans’ writes on the main thread, and the roll-ups equal the log', async () => {
    const { result: res, longestGapMs } = await longestGapDuring(() =>
      s.t.request({ method: 'DELETE', url: `/v1/qr/${s.id}/scans?${hourOfBusyDay()}`, key: s.key }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ forgotten: COUNT / 24 });
    console.info(`forget: the main thread's longest stretch while an hour of ${COUNT} scans went: ${longestGapMs.toFixed(1)} ms`);
    // Reading the day here (as before the read workers planned it) takes some 300 ms of CPU or more.
    expect(longestGapMs).toBeLessThan(100);
    const got = await s.t.request({ method: 'GET', url: `/v1/qr/${s.id}`, key: s.key });
    expect(got.json().item.scanCount).toBe(COUNT - COUNT / 10 - (COUNT / 24 - COUNT / 240));
    await expectRollupsEqualLog(s.t);
  });
});

describe.skipIf(ON_POSTGRES)('forgetting without read workers (READ_WORKERS=0)', () => {
  let s: Awaited<ReturnType<typeof setUp>>;
  beforeAll(async () => {
    s = await setUp({ READ_WORKERS: '0' }, 4_800);
  }, 60_000);
  afterAll(() => s.t.close());

  it('plans and writes the day on this thread, exactly', async () => {
    const res = await s.t.request({ method: 'DELETE', url: `/v1/qr/${s.id}/scans?${hourOfBusyDay()}`, key: s.key });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ forgotten: 200 });
    await expectRollupsEqualLog(s.t);
  });
});
