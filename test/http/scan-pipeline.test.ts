// The scan pipeline's promise: the roll-ups always equal the scan log up to the aggregator's
// cursor, whatever is killed when. A randomized workload of scans (humans and bots, several
// codes, a split rule, a code not active yet) runs against real server processes that are
// killed with SIGKILL mid-wave, restarted (on PostgreSQL two at once, so ids commit out of
// order), and at the end the roll-ups are recomputed from the log and compared, table by table.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDatabaseUrl } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { ON_POSTGRES, freshDatabaseUrl } from '../support/databases.ts';
import { type RunningServer, runCli, startServer } from '../support/processes.ts';
import { expectedRollups, storedRollups } from '../support/rollup-check.ts';

const AGENTS = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
  'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Googlebot/2.1 (+http://www.google.com/bot.html)',
  'curl/8.5.0',
];

let dir: string;
let env: Record<string, string>;
let dispose: () => Promise<void> = async () => {};
const servers: RunningServer[] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qrtrack-pipeline-'));
  const fresh = await freshDatabaseUrl();
  dispose = fresh.dispose;
  env = { DATABASE_URL: fresh.url };
});
afterAll(async () => {
  for (const s of servers) await s.stop('SIGKILL');
  await dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4_294_967_296;
  };
}

describe('scan pipeline', () => {
  it('keeps the roll-ups equal to the scan log through SIGKILLs and restarts', async () => {
    const seed = Number(process.env.PIPELINE_SEED ?? Date.now() % 100_000);
    const rnd = random(seed);
    const key = runCli(['keys', 'create', '--account', 'p', '--scopes', 'qr:read,qr:write'], env)
      .stdout.trim()
      .split('\n')
      .at(-1) as string;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const start = async () => {
      const s = await startServer(env);
      servers.push(s);
      return s;
    };
    let first = await start();
    const create = async (body: object) => {
      const res = await fetch(`${first.url}/v1/qr`, { method: 'POST', headers, body: JSON.stringify(body) });
      expect(res.status).toBe(201);
      return ((await res.json()) as { item: { id: string; code: string } }).item;
    };
    const codes: string[] = [];
    for (let i = 0; i < 6; i++) codes.push((await create({ title: `c${i}`, url: `https://example.com/${i}` })).code);
    codes.push(
      (
        await create({
          title: 'split',
          url: 'https://example.com/s',
          rules: [
            { name: 'iOS', conditions: [{ type: 'os', op: 'in', values: ['ios'] }], destination: 'https://example.com/ios' },
            {
              name: 'AB',
              conditions: [],
              split: [
                { destination: 'https://example.com/a', weight: 50 },
                { destination: 'https://example.com/b', weight: 50 },
              ],
            },
          ],
        })
      ).code,
    );
    codes.push((await create({ title: 'later', url: 'https://example.com/l', activatesAt: '2099-01-01T00:00:00Z' })).code);

    let answered = 0;
    let sent = 0;
    const wave = (s: RunningServer, n: number) =>
      Promise.all(
        Array.from({ length: n }, async () => {
          const code = codes[Math.floor(rnd() * codes.length)] as string;
          const agent = AGENTS[Math.floor(rnd() * AGENTS.length)] as string;
          sent++;
          try {
            const res = await fetch(`${s.url}/r/${code}`, { redirect: 'manual', headers: { 'user-agent': agent } });
            await res.arrayBuffer();
            if (res.status === 302 || res.status === 200) answered++;
          } catch {
            // killed mid-answer: this scan may or may not be in the log
          }
        }),
      );

    let running = [first];
    if (ON_POSTGRES) running.push(await start());
    for (let round = 0; round < 4; round++) {
      const victim = running[Math.floor(rnd() * running.length)] as RunningServer;
      const load = running.map(async (s) => {
        for (let w = 0; w < 6; w++) await wave(s, 20 + Math.floor(rnd() * 30));
      });
      // Killed after a random moment of the load: mid-batch, mid-slice, or after it.
      await new Promise((r) => setTimeout(r, 50 + rnd() * 400));
      expect(await victim.stop('SIGKILL')).toBe('SIGKILL');
      await Promise.all(load);
      running = running.filter((s) => s !== victim);
      running.push(await start());
    }
    first = running[0] as RunningServer;
    // A read through the API waits for the roll-ups to hold every scan answered before it.
    const list = await fetch(`${first.url}/v1/qr?limit=100`, { headers });
    const items = ((await list.json()) as { items: { scanCount: number }[] }).items;
    for (const s of running) expect(await s.stop('SIGTERM')).toBe(0);

    const db = await openDatabase(parseDatabaseUrl(env.DATABASE_URL as string));
    try {
      const expected = await expectedRollups(db);
      const stored = await storedRollups(db);
      // Every answered scan was logged, and everything logged was applied by the clean stops.
      expect(expected.logged, `seed ${seed}`).toBeGreaterThanOrEqual(answered);
      expect(expected.logged).toBeLessThanOrEqual(sent);
      const end = await db.kysely
        .selectFrom('scans')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirstOrThrow();
      expect(expected.position).toBe(Number(end.id));
      for (const table of Object.keys(expected.snapshot)) {
        expect(stored[table], `${table} (seed ${seed})`).toEqual(expected.snapshot[table]);
      }
      // The list read before the stops already held every scan answered before it.
      const humans = Object.values(expected.snapshot.items ?? {}).reduce((n, v) => n + Number(v.split(',')[0]), 0);
      expect(items.reduce((n, i) => n + i.scanCount, 0)).toBe(humans);
    } finally {
      await db.close();
    }
  }, 240_000);
});
