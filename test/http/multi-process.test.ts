// Two real server processes on one PostgreSQL database: scans and changes made
// through either are seen by both, and no increment is lost.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl } from '../support/databases.ts';
import { type RunningServer, runCli, startServer } from '../support/processes.ts';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.TEST_REDIS_URL;
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe.skipIf(!TEST_DATABASE_URL || process.env.QRTRACK_TEST_DB !== 'postgres')('several processes on one PostgreSQL database', () => {
  let a: RunningServer;
  let b: RunningServer;
  let dispose: () => Promise<void>;
  let env: Record<string, string>;

  beforeAll(async () => {
    const db = await freshDatabaseUrl();
    dispose = db.dispose;
    env = { DATABASE_URL: db.url, ...(REDIS_URL ? { REDIS_URL, RATE_LIMIT_PER_MINUTE: '100000' } : {}) };
    // Both start at once: the migration lock must let exactly one migrate.
    [a, b] = await Promise.all([startServer(env), startServer(env)]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await dispose?.();
  });

  it('counts every scan made through both processes and applies pause and delete everywhere at once', async () => {
    const key = runCli(['keys', 'create', '--account', 'mp', '--scopes', 'qr:read,qr:write'], env).stdout.trim().split('\n').at(-1)!;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const created = await fetch(`${a.url}/v1/qr`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: 'mp', url: 'https://example.com/mp' }),
    });
    expect(created.status).toBe(201);
    const { item } = (await created.json()) as { item: { id: string; code: string } };

    // Warm both caches, then hammer the same item through both processes concurrently.
    const hit = (s: RunningServer, i: number) =>
      fetch(`${s.url}/r/${item.code}`, { redirect: 'manual', headers: { 'user-agent': IPHONE, 'x-test': String(i) } }).then(
        (r) => r.status,
      );
    const statuses = await Promise.all(Array.from({ length: 400 }, (_, i) => hit(i % 2 ? a : b, i)));
    expect(statuses.every((s) => s === 302)).toBe(true);
    for (const s of [a, b]) {
      const stats = (await (await fetch(`${s.url}/v1/qr/${item.id}/stats`, { headers })).json()) as {
        totals: { scans: number; scansInRange: number };
      };
      expect(stats.totals).toMatchObject({ scans: 400, scansInRange: 400 });
    }

    // Pause through A: B answers 404 at once, although B had the link cached.
    const pause = await fetch(`${a.url}/v1/qr/${item.id}`, { method: 'PATCH', headers, body: JSON.stringify({ active: false }) });
    expect(pause.status).toBe(200);
    await expect.poll(() => hit(b, 0), { timeout: 2_000, interval: 20 }).toBe(404);
    expect(await hit(a, 0)).toBe(404);
    // Resume through B: A redirects again.
    await fetch(`${b.url}/v1/qr/${item.id}`, { method: 'PATCH', headers, body: JSON.stringify({ active: true }) });
    await expect.poll(() => hit(a, 0), { timeout: 2_000, interval: 20 }).toBe(302);
    // Delete through B: A answers 410.
    const del = await fetch(`${b.url}/v1/qr/${item.id}`, { method: 'DELETE', headers });
    expect(del.status, await del.text()).toBe(200);
    await expect.poll(() => hit(a, 0), { timeout: 2_000, interval: 20 }).toBe(410);
    const read = (await (await fetch(`${a.url}/v1/qr/${item.id}`, { headers })).json()) as { error: string };
    expect(read.error).toBeDefined();
  });

  it('never lets a scan cap overshoot across processes: 100 parallel scans through both on a cap of 10 get exactly 10 destinations', async () => {
    const key = runCli(['keys', 'create', '--account', 'mp-cap', '--scopes', 'qr:read,qr:write'], env).stdout.trim().split('\n').at(-1)!;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const created = await fetch(`${a.url}/v1/qr`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: 'capped', url: 'https://example.com/cap', maxScans: 10 }),
    });
    const { item } = (await created.json()) as { item: { id: string; code: string } };
    const statuses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        fetch(`${(i % 2 ? a : b).url}/r/${item.code}`, { redirect: 'manual', headers: { 'user-agent': IPHONE } }).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 302)).toHaveLength(10);
    expect(statuses.filter((s) => s === 410)).toHaveLength(90);
    const read = (await (await fetch(`${b.url}/v1/qr/${item.id}`, { headers })).json()) as { item: Record<string, unknown> };
    expect(read.item).toMatchObject({ status: 'capped', capCount: 10, scanCount: 10 });
  });

  it('has at most 5 in 100 paused or deleted codes still redirected by the other process after the answer, each for under a second', async () => {
    // The announcement used to be sent after the answer: the other process kept redirecting
    // (and counting) a paused or deleted code for 4–12 ms, in 5–7 % of tries.
    const key = runCli(['keys', 'create', '--account', 'mp-window', '--scopes', 'qr:read,qr:write'], env).stdout.trim().split('\n').at(-1)!;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const scan = (s: RunningServer, code: string) =>
      fetch(`${s.url}/r/${code}`, { redirect: 'manual', headers: { 'user-agent': IPHONE } }).then((r) => r.status);
    const stale: string[] = [];
    for (let i = 0; i < 100; i++) {
      const created = await fetch(`${a.url}/v1/qr`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ title: `w${i}`, url: 'https://example.com/w' }),
      });
      const { item } = (await created.json()) as { item: { id: string; code: string } };
      expect(await scan(b, item.code)).toBe(302); // cached in B
      const pause = i % 2 === 1;
      const res = await fetch(
        `${a.url}/v1/qr/${item.id}`,
        pause ? { method: 'PATCH', headers, body: JSON.stringify({ active: false }) } : { method: 'DELETE', headers },
      );
      expect(res.status).toBe(200);
      const seen = await scan(b, item.code);
      if (seen !== (pause ? 404 : 410)) {
        stale.push(`${pause ? 'pause' : 'delete'} #${i}: ${seen}`);
        // Late, but not for long: the other process has read the announcement within a second.
        await expect.poll(() => scan(b, item.code), { timeout: 1_000, interval: 10 }).toBe(pause ? 404 : 410);
      }
    }
    // PostgreSQL promises no order between listeners, so a process can still read the
    // announcement a moment after the answer went out; before the echo wait and the turn
    // before a cached answer, 13 in 100 did (quiet machine), after them 0 or 1 (load 7).
    expect(stale.length, stale.join(', ')).toBeLessThanOrEqual(5);
  });

  it.skipIf(!REDIS_URL)('shares rate limits across processes through Redis', async () => {
    const limited = { ...env, RATE_LIMIT_PER_MINUTE: '6' };
    const [c, d] = await Promise.all([startServer(limited), startServer(limited)]);
    try {
      const key = runCli(['keys', 'create', '--account', 'rl', '--scopes', 'qr:read'], env).stdout.trim().split('\n').at(-1)!;
      const headers = { authorization: `Bearer ${key}` };
      const codes: number[] = [];
      for (let i = 0; i < 8; i++) codes.push((await fetch(`${(i % 2 ? c : d).url}/v1/qr`, { headers })).status);
      expect(codes.slice(0, 6).every((s) => s === 200)).toBe(true);
      expect(codes.slice(6)).toEqual([429, 429]);
    } finally {
      await Promise.all([c.stop(), d.stop()]);
    }
  });
});
