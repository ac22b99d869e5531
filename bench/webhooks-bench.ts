// Webhooks: what five endpoints subscribed to every scan cost the redirect, against none, on one
// server in the same run (rounds alternate: none, five, none, five…; the ratio is the median of the
// rounds' five/none), and how fast the worker delivers a backlog to a receiver that answers at once.
// Scan events are written by the scan log's feed after the roll-ups, never by the redirect: the
// redirect pays only for the feed's and the worker's share of the thread (SQLite) or database.
// Run alone: npx tsx bench/webhooks-bench.ts [--quick]
import { fork } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ApiKeysRepository } from '../src/db/accounts/api-keys-repository.ts';
import { openDatabase } from '../src/db/database.ts';
import { QrItemsRepository } from '../src/db/qr-items/qr-items-repository.ts';
import { SCANS_PER_MESSAGE } from '../src/db/webhooks/scan-events.ts';
import { generateApiKey, parseScopes } from '../src/domain/accounts/api-key.ts';
import { resolveDesign } from '../src/domain/design/design.ts';
import { type LoadResult, loadGenerator, measure, medianResult, spawnServer } from './http-load.ts';
import { freePortNumber } from './ports.ts';
import { type ResultRow, printResults } from './result-row.ts';
import { settle } from './settle.ts';
import { type ThreadCpu, cpuSpent, threadCpuSeconds } from './thread-cpu.ts';
import { tempSqlite } from './stats-bench.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const ENDPOINTS = 5;

export interface WebhooksBenchOptions {
  connections: number;
  durationSeconds: number;
  rounds: number;
}

async function seed(file: string) {
  const db = await openDatabase({ kind: 'sqlite', file });
  const keys = new ApiKeysRepository(db);
  const accountId = await keys.ensureAccount('bench-webhooks');
  const key = generateApiKey();
  await keys.createKey({
    accountId,
    name: 'bench',
    prefix: key.prefix,
    hash: key.hash,
    scopes: parseScopes('qr:read,webhooks:read,webhooks:write'),
  });
  const item = await new QrItemsRepository(db).create(accountId, {
    title: 'bench',
    contentType: 'url',
    payload: 'https://example.com/',
    fields: {},
    design: resolveDesign(undefined),
  });
  await db.close();
  return { key: key.key, code: item.code };
}

/**
 * How much the receiver yields to the server (Linux nice). It shares the machine's two cores with
 * the server and the load generator, where a real receiver runs on machines of its own: at the
 * server's priority its work (some 12 µs a redirect with five endpoints) was taken from the thread
 * that answers the short links. What it costs is still measured and printed.
 */
const RECEIVER_NICE = 10;

/** The receiver (bench/webhook-receiver.ts) in a child process below the server's priority. */
async function receiver(): Promise<{ url: string; pid: number; count(): Promise<number>; close(): Promise<void> }> {
  const child = fork(path.join(import.meta.dirname, 'webhook-receiver.ts'), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { url: string }).url));
    child.once('exit', (code) => reject(new Error(`the receiver exited (${code})`)));
  });
  os.setPriority(child.pid as number, RECEIVER_NICE);
  return {
    url,
    pid: child.pid as number,
    count: () =>
      new Promise<number>((resolve) => {
        child.once('message', (m) => resolve((m as { count: number }).count));
        child.send('count');
      }),
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.disconnect();
      }),
  };
}

interface Spent {
  server: ThreadCpu | null;
  /** Seconds of the receiver process's CPU. */
  receiver: number;
  /** Requests answered in the round, its one-second warm-up included (at the measured rate). */
  requests: number;
}

/** Microseconds of `part` per request answered, over all the rounds of one kind. */
function perRequest(rounds: readonly Spent[], part: (c: Spent) => number): number {
  const seconds = rounds.reduce((sum, c) => sum + part(c), 0);
  const requests = rounds.reduce((sum, c) => sum + c.requests, 0);
  return (seconds / requests) * 1e6;
}

export async function runWebhooksBench(o: WebhooksBenchOptions): Promise<ResultRow[]> {
  const sqlite = tempSqlite();
  const seeded = await seed(sqlite.file);
  const rx = await receiver();
  const port = await freePortNumber();
  const base = `http://127.0.0.1:${port}`;
  const server = await spawnServer(
    [
      process.execPath,
      ...(process.env.WEBHOOKS_BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.WEBHOOKS_BENCH_PROF}`] : []),
      '--import',
      'tsx',
      path.join(ROOT, 'src/server.ts'),
    ],
    {
      DATABASE_URL: `sqlite:${sqlite.file}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '1000000',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    },
    `${base}/healthz`,
  );
  const api = async (method: string, p: string, body?: object) => {
    const res = await fetch(`${base}/v1${p}`, {
      method,
      headers: { authorization: `Bearer ${seeded.key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<{ webhook: { id: string } }>;
  };
  try {
    const ids: string[] = [];
    for (let i = 0; i < ENDPOINTS; i++) ids.push((await api('POST', '/webhooks', { url: rx.url, events: ['scan.created'] })).webhook.id);
    const setEnabled = (enabled: boolean) => Promise.all(ids.map((id) => api('PATCH', `/webhooks/${id}`, { enabled })));
    const url = `${base}/r/${seeded.code}`;
    const load = { connections: o.connections, durationSeconds: o.durationSeconds, headers: { 'user-agent': IPHONE } };
    const none: LoadResult[] = [];
    const five: LoadResult[] = [];
    let delivered = 0;
    let deliverSeconds = 0;
    // Where each round's CPU went: the server's main thread (the short links'), its other threads
    // (the webhooks' sender, the checkpointer, read workers) and the receiver's process.
    const cpu = { none: [] as Spent[], five: [] as Spent[] };
    const spent = async <T extends LoadResult>(into: Spent[], run: () => Promise<T>): Promise<T> => {
      const [server0, rx0] = [await threadCpuSeconds(server.pid), await threadCpuSeconds(rx.pid)];
      const result = await run();
      const received = cpuSpent(rx0, await threadCpuSeconds(rx.pid));
      into.push({
        server: cpuSpent(server0, await threadCpuSeconds(server.pid)),
        receiver: received ? received.main + received.others : Number.NaN,
        requests: result.rps * (o.durationSeconds + 1),
      });
      return result;
    };
    for (let round = 0; round < o.rounds; round++) {
      await setEnabled(false);
      await settle();
      none.push(await spent(cpu.none, () => measure(url, load)));
      await setEnabled(true);
      await settle();
      const before = await rx.count();
      const started = performance.now();
      five.push(await spent(cpu.five, () => measure(url, load)));
      delivered += (await rx.count()) - before;
      deliverSeconds += (performance.now() - started) / 1000;
    }
    // The backlog the rounds left: delivered at the worker's pace for a few seconds more.
    const drainFrom = await rx.count();
    const drainStart = performance.now();
    await new Promise((r) => setTimeout(r, o.durationSeconds * 1000));
    const drainRate = ((await rx.count()) - drainFrom) / ((performance.now() - drainStart) / 1000);
    const n = medianResult(none);
    const f = medianResult(five);
    const perRound = five.map((r, i) => `${none[i]?.rps.toFixed(0)}→${r.rps.toFixed(0)}`).join(' ');
    // The ratio of each round's pair (none, then five, a few seconds apart), and their median: this
    // machine's pace drifts by a third within a run, and a pair shares its moment of it.
    const pairs = five.map((r, i) => r.rps / (none[i]?.rps ?? Number.NaN)).sort((a, b) => a - b);
    const pairRatio = pairs[Math.floor(pairs.length / 2)] as number;
    return [
      {
        name: `SQLite /r/{code} req/s with ${ENDPOINTS} webhook endpoints subscribed to every scan`,
        value: f.rps,
        unit: 'req/s',
        ratio: pairRatio,
        baseline: `no endpoint: ${Math.round(n.rps)} req/s, p50 ${n.p50} ms, p99 ${n.p99} ms`,
        extra: `p50 ${f.p50} ms, p99 ${f.p99} ms, errors ${f.errors + f.non2xx3xx}; req/s per round none→five ${perRound}; ratio: the median of the rounds' (${pairs.map((r) => r.toFixed(2)).join(', ')}), of the medians ${(f.rps / n.rps).toFixed(2)}; load by ${loadGenerator()}`,
      },
      {
        name: 'CPU per redirect (µs): server main thread, other server threads, receiver; none → five',
        value: perRequest(cpu.five, (c) => c.server?.main ?? Number.NaN),
        unit: 'µs',
        extra: ['main', 'others', 'receiver']
          .map((part) => {
            const pick = (c: Spent) => (part === 'receiver' ? c.receiver : (c.server?.[part as keyof ThreadCpu] ?? Number.NaN));
            return `${part} ${perRequest(cpu.none, pick).toFixed(1)} → ${perRequest(cpu.five, pick).toFixed(1)}`;
          })
          .join('; '),
      },
      {
        name: `SQLite scan events delivered a second to ${ENDPOINTS} endpoints, during the load`,
        value: delivered / deliverSeconds,
        unit: 'events/s',
        extra: `then the backlog alone: ${drainRate.toFixed(0)} events/s; up to ${SCANS_PER_MESSAGE} scans a message, each endpoint held to 50 messages a second and 10 in flight`,
      },
    ];
  } finally {
    await server.close();
    await rx.close();
    sqlite.dispose();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const quick = process.argv.includes('--quick');
  printResults(await runWebhooksBench({ connections: 50, durationSeconds: quick ? 3 : 10, rounds: quick ? 1 : 5 }));
}
