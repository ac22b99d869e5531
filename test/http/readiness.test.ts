// When the database stops taking writes or answering, the short links keep serving what they
// can, the failures are logged a line at a time, and GET /readyz says what is wrong.
import fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { FailureWatch } from '../../src/http/short-links/failure-watch.ts';
import { ON_POSTGRES } from '../support/databases.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close().catch(() => {});
  t = null;
});

async function appWithCode(): Promise<{ t: TestApp; code: string }> {
  t = await makeTestApp();
  const key = await t.key('ready');
  const res = await t.request({ method: 'POST', url: '/v1/qr', key, payload: { title: 'Poster', url: 'https://example.com/poster' } });
  return { t, code: res.json().item.code as string };
}

describe('GET /readyz', () => {
  it('is 200 while the database reads and writes', async () => {
    const { t, code } = await appWithCode();
    expect((await t.request({ method: 'GET', url: `/r/${code}` })).statusCode).toBe(302);
    const ready = await t.request({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ ok: true });
  });

  it.skipIf(ON_POSTGRES)('says scans are being lost when the database refuses writes, while the links still redirect', async () => {
    const { t, code } = await appWithCode();
    t.db.sqlite!.pragma('query_only = ON'); // every write now fails, as on a full disk
    for (let i = 0; i < 20; i++) expect((await t.request({ method: 'GET', url: `/r/${code}` })).statusCode).toBe(302);
    const ready = await t.request({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({
      ok: false,
      problems: ['scans: some were answered but not stored in the last minute (is the disk full?)'],
    });
    expect((await t.request({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it.skipIf(ON_POSTGRES)('says so when the SQLite file was deleted under the running server', async () => {
    const { t } = await appWithCode();
    const file = t.db.sqlite!.name;
    fs.rmSync(file);
    const ready = await t.request({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().problems).toContain(
      'database: its file was deleted or replaced while the server ran; what it writes now is lost at the next start',
    );
    expect(ready.body).not.toContain(file); // the answer needs no key: no paths in it
  });

  it('answers 503 with Retry-After, not 500, for a link it cannot look up, and says the database is down', async () => {
    const { t } = await appWithCode();
    await t.db.close(); // the database is gone
    const res = await t.request({ method: 'GET', url: '/r/Zz9Yy8X' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.headers['cache-control']).toBe('no-store');
    const ready = await t.request({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().problems[0]).toBe('database: cannot be read'); // the driver's own words (addresses, users) stay in the log
    expect(ready.json().problems).toContain('shortLinks: some could not be looked up in the last minute');
  });
});

describe('FailureWatch', () => {
  const collect = () => {
    const lines: Record<string, unknown>[] = [];
    const log = { error: (fields: Record<string, unknown>) => lines.push(fields) } as unknown as FastifyBaseLogger;
    return { lines, watch: new FailureWatch(log, 'scans not recorded') };
  };
  afterEach(() => vi.useRealTimers());

  it('logs the first failure with its error, then one line every 10 s with how many followed', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const { lines, watch } = collect();
    const err = new Error('SQLITE_FULL');
    for (let ms = 0; ms < 25_000; ms += 10) {
      watch.failed(err, { code: 'x' });
      vi.advanceTimersByTime(10);
    }
    expect(lines.map((l) => l.failures)).toEqual([1, 999, 1000]);
    expect(lines[0]).toMatchObject({ err, code: 'x' });
    expect(watch.failedWithin(60_000)).toBe(true);
    vi.advanceTimersByTime(90_000);
    expect(watch.failedWithin(60_000)).toBe(false);
    // The 500 of the last 5 s are written when their period ends, not lost: 2,500 in all.
    expect(lines.map((l) => l.failures)).toEqual([1, 999, 1000, 500]);
  });

  it('counts a burst shorter than the period: its tail is written when the period ends', () => {
    vi.useFakeTimers({ now: 2_000_000 });
    const { lines, watch } = collect();
    for (let i = 0; i < 900; i++) watch.failed(new Error('disk full'));
    expect(lines.map((l) => l.failures)).toEqual([1]);
    vi.advanceTimersByTime(10_000);
    expect(lines.map((l) => l.failures)).toEqual([1, 899]);
    vi.advanceTimersByTime(60_000);
    expect(lines).toHaveLength(2);
  });
});
