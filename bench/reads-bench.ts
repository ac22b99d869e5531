// The redirect while heavy reads run (issue #27): on SQLite, with the read workers (the default)
// and, for comparison in the same run, with the reads on the thread that answers short links
// (READ_WORKERS=0). Two measures, each against the same redirect alone:
// - load: /r/{code} under the redirect bench's load (autocannon, 50 connections) while three
//   clients loop over a 200-code list page with sparklines (each code scanned in every quarter
//   hour of the 14 days shown), a 90-day stats read of a code scanned in every quarter hour of
//   90 days, and a CSV export of the account's codes;
// - probe: one /r/{code} every 20 ms (as the neighbours bench does) beside each of those reads
//   looping alone: what a visitor waits while the read runs, without the load generator's noise.
// Run alone: npx tsx bench/reads-bench.ts [--quick]
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { ApiKeysRepository } from '../src/db/accounts/api-keys-repository.ts';
import { openDatabase } from '../src/db/database.ts';
import { QrItemsRepository } from '../src/db/qr-items/qr-items-repository.ts';
import { generateApiKey, parseScopes } from '../src/domain/accounts/api-key.ts';
import { resolveDesign } from '../src/domain/design/design.ts';
import { type LoadResult, measure, medianResult, spawnServer } from './http-load.ts';
import { seedBusyBuckets, seedCodes } from './list-seed.ts';
import { freePortNumber } from './ports.ts';
import { type ResultRow, percentile, printResults } from './result-row.ts';
import { settle } from './settle.ts';
import { tempSqlite } from './stats-bench.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const QUARTER_MS = 900_000;

export interface ReadsBenchOptions {
  connections: number;
  durationSeconds: number;
  rounds: number;
  /** Codes of the reading account, all in each CSV export. */
  codes: number;
}

interface Seeded {
  key: string;
  probeCode: string;
  statsId: string;
}

async function seed(file: string, codes: number): Promise<Seeded> {
  const db = await openDatabase({ kind: 'sqlite', file });
  const keys = new ApiKeysRepository(db);
  const account = await keys.ensureAccount('bench-reads');
  const key = generateApiKey();
  await keys.createKey({ accountId: account, name: 'bench', prefix: key.prefix, hash: key.hash, scopes: parseScopes('qr:read') });
  await seedCodes(db, account, codes, 'r');
  // The list's first page: 200 codes scanned in every quarter hour of the sparklines' 14 days.
  await seedBusyBuckets(db, account, 200, 14);
  // The stats read: the 201st newest code, scanned in every quarter hour of 90 days, with breakdowns.
  const statsCode = await db.kysely
    .selectFrom('qr_items')
    .select('id')
    .where('account_id', '=', account)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(200)
    .limit(1)
    .executeTakeFirstOrThrow();
  const last = Math.floor(Date.now() / QUARTER_MS);
  const first = last - 90 * 96 + 1;
  await sql`with recursive b(bucket) as (select ${sql.lit(first)} union all select bucket + 1 from b where bucket < ${sql.lit(last)})
    insert into scan_buckets (item_id, bucket, scans, unique_scans, bot_scans) select ${statsCode.id}, bucket, 3, 2, 0 from b`.execute(
    db.kysely,
  );
  await sql`with recursive d(n) as (select 0 union all select n + 1 from d where n < 90),
      v(dim, value) as (values ('device', 'mobile'), ('device', 'desktop'), ('os', 'iOS'), ('os', 'Android'), ('browser', 'Safari'),
        ('browser', 'Chrome'), ('country', 'US'), ('country', 'DE'), ('country', 'FR'), ('referrer', 'direct'))
    insert into scan_dims_daily (item_id, day, dim, value, scans)
    select ${statsCode.id}, date('now', '-' || n || ' days'), dim, value, 100 from d cross join v`.execute(db.kysely);
  const probeAccount = await keys.ensureAccount('bench-reads-probe');
  const probe = await new QrItemsRepository(db).create(probeAccount, {
    title: 'probe',
    contentType: 'url',
    payload: 'https://example.com/',
    fields: {},
    design: resolveDesign(undefined),
  });
  await db.close();
  return { key: key.key, probeCode: probe.code, statsId: statsCode.id };
}

interface ReadTally {
  done: Record<string, number>;
  statuses: Map<number, number>;
}

const READS = {
  sparklines: (_s: Seeded) => '/v1/qr?limit=200&include=sparkline',
  'stats 90 days': (s: Seeded) => `/v1/qr/${s.statsId}/stats?days=90`,
  'CSV export': (_s: Seeded) => '/v1/qr/export?format=csv',
} as const;
type ReadName = keyof typeof READS;

/** One client per read, each sending its request again as soon as the last is answered, until stopped. */
function readLoops(base: string, s: Seeded, names: readonly ReadName[]): { stop(): Promise<ReadTally> } {
  let running = true;
  const done: Record<string, number> = {};
  const statuses = new Map<number, number>();
  const loop = async (name: ReadName) => {
    while (running) {
      const res = await fetch(`${base}${READS[name](s)}`, { headers: { authorization: `Bearer ${s.key}` } });
      await res.arrayBuffer();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      done[name] = (done[name] ?? 0) + 1;
      if (res.status === 503) await new Promise((resolve) => setTimeout(resolve, Number(res.headers.get('retry-after') ?? 1) * 1000));
    }
  };
  const loops = names.map(loop);
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      return { done, statuses };
    },
  };
}

/** /r/{code} once every 20 ms for `ms`, each probe on its own; the latencies, sorted. */
async function probe(url: string, durationMs: number): Promise<number[]> {
  const times: number[] = [];
  const pending = new Set<Promise<void>>();
  const one = async () => {
    const t0 = performance.now();
    const res = await fetch(url, { redirect: 'manual', headers: { 'user-agent': IPHONE } });
    await res.arrayBuffer();
    times.push(performance.now() - t0);
  };
  const timer = setInterval(() => {
    const p = one();
    pending.add(p);
    void p.finally(() => pending.delete(p));
  }, 20);
  await new Promise((resolve) => setTimeout(resolve, durationMs));
  clearInterval(timer);
  await Promise.all(pending);
  return times.sort((a, b) => a - b);
}

const ms = (sorted: readonly number[], p: number) => percentile(sorted, p).toFixed(1);

async function measureWith(file: string, seeded: Seeded, readWorkers: number, o: ReadsBenchOptions): Promise<ResultRow[]> {
  const port = await freePortNumber();
  const base = `http://127.0.0.1:${port}`;
  const server = await spawnServer(
    [process.execPath, '--import', 'tsx', path.join(ROOT, 'src/server.ts')],
    {
      DATABASE_URL: `sqlite:${file}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '1000000',
      READ_WORKERS: String(readWorkers),
    },
    `${base}/healthz`,
    60_000,
  );
  try {
    const url = `${base}/r/${seeded.probeCode}`;
    const load = { connections: o.connections, durationSeconds: o.durationSeconds, headers: { 'user-agent': IPHONE } };
    const alone: LoadResult[] = [];
    const beside: LoadResult[] = [];
    const reads: Record<string, number> = {};
    const statuses = new Map<number, number>();
    for (let round = 0; round < o.rounds; round++) {
      await settle();
      alone.push(await measure(url, load));
      await settle();
      const loops = readLoops(base, seeded, Object.keys(READS) as ReadName[]);
      beside.push(await measure(url, load));
      const tally = await loops.stop();
      for (const [name, n] of Object.entries(tally.done)) reads[name] = (reads[name] ?? 0) + n;
      for (const [status, n] of tally.statuses) statuses.set(status, (statuses.get(status) ?? 0) + n);
    }
    const a = medianResult(alone);
    const m = medianResult(beside);
    const where = readWorkers > 0 ? `in ${readWorkers} read workers` : 'on the main thread (READ_WORKERS=0)';
    const others = [...statuses].filter(([s]) => s !== 200).map(([s, n]) => `${n}× ${s}`);
    const done = (tally: Record<string, number>) =>
      Object.entries(tally)
        .map(([k, n]) => `${n} ${k}`)
        .join(', ');
    const rows: ResultRow[] = [
      {
        name: `SQLite /r/{code} p99 under load while sparkline pages, 90-day stats and CSV exports loop, reads ${where}`,
        value: m.p99,
        unit: 'ms',
        ratio: m.p99 / a.p99,
        baseline: `/r/{code} alone: p50 ${a.p50} ms, p99 ${a.p99} ms, ${Math.round(a.rps)} req/s`,
        extra:
          `p50 ${m.p50} ms, ${Math.round(m.rps)} req/s, errors ${m.errors + m.non2xx3xx}; ` +
          `reads answered: ${done(reads)}${others.length ? ` (${others.join(', ')})` : ''}; median of ${o.rounds}`,
      },
    ];
    await settle();
    const idle = await probe(url, o.durationSeconds * 1000);
    const idleNote = `probe alone: p50 ${ms(idle, 50)}, p99 ${ms(idle, 99)}, max ${ms(idle, 100)} ms`;
    for (const name of Object.keys(READS) as ReadName[]) {
      await settle();
      const loops = readLoops(base, seeded, [name]);
      const times = await probe(url, o.durationSeconds * 1000);
      const tally = await loops.stop();
      rows.push({
        name: `SQLite /r/{code} probe p99 beside ${name} in a loop, reads ${where}`,
        value: Number(ms(times, 99)),
        unit: 'ms',
        ratio: percentile(times, 99) / percentile(idle, 99),
        baseline: idleNote,
        extra: `p50 ${ms(times, 50)}, max ${ms(times, 100)} ms; ${times.length} probes; reads answered: ${done(tally.done)}`,
      });
    }
    return rows;
  } finally {
    await server.close();
  }
}

export async function runReadsBench(o: ReadsBenchOptions): Promise<ResultRow[]> {
  const sqlite = tempSqlite();
  try {
    const seeded = await seed(sqlite.file, o.codes);
    return [...(await measureWith(sqlite.file, seeded, 2, o)), ...(await measureWith(sqlite.file, seeded, 0, o))];
  } finally {
    sqlite.dispose();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const quick = process.argv.includes('--quick');
  printResults(await runReadsBench({ connections: 50, durationSeconds: quick ? 3 : 10, rounds: quick ? 1 : 3, codes: 20_000 }));
}
