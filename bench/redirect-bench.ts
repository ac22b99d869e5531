// The redirect hot path: a bare Node http server answering 302 (the ceiling on this
// machine) against our /r/{code} with scan recording, under the same load
// (autocannon in its own process, loopback only, bounded in time). The two are
// measured in alternation and the median of each is reported, because a shared
// 2-core machine drifts from minute to minute.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import type { DatabaseConfig } from '../src/config.ts';
import { ApiKeysRepository } from '../src/db/accounts/api-keys-repository.ts';
import { openDatabase } from '../src/db/database.ts';
import { QrItemsRepository } from '../src/db/qr-items/qr-items-repository.ts';
import { resolveDesign } from '../src/domain/design/design.ts';
import { checkRules } from '../src/domain/dynamic/check-rules.ts';
import { type DynamicSettings, NO_DYNAMIC } from '../src/domain/dynamic/dynamic-settings.ts';
import { sampleLag } from './aggregator-lag.ts';
import { type LoadResult, measure, measureSpread, medianResult, spawnServer, startBareRedirectServer } from './http-load.ts';
import { seedCodes } from './list-seed.ts';
import { postgresCpuSeconds } from './postgres-cpu.ts';
import { freePortNumber } from './ports.ts';
import { settle } from './settle.ts';
import type { ResultRow } from './result-row.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

export interface RedirectBenchOptions {
  connections: number;
  durationSeconds: number;
  rounds: number;
  /** Codes the long-tail case spreads its scans over (each request draws one at random). */
  spreadCodes: number;
}

export interface RedirectTarget {
  label: string;
  database: DatabaseConfig;
  databaseUrl: string;
}

/**
 * The most a code's routing can ask of a scan: 25 rules (24 that an iPhone fails, each with
 * several conditions, then a split that takes it), query passthrough and UTM.
 */
function heaviestRouting(): DynamicSettings {
  const conditions = (i: number) => [
    { type: 'os', op: 'in', values: ['android', 'windows'] },
    { type: 'country', op: 'not_in', values: ['US', 'GB', 'FR'] },
    { type: 'language', op: 'in', values: ['de', 'fr', 'it'] },
    { type: 'time', op: 'in', values: ['09:00-17:00'], tz: 'Europe/Berlin' },
    { type: 'weekday', op: 'in', values: ['mon', 'tue', 'wed'], tz: 'America/New_York' },
    { type: 'query', op: 'in', key: `k${i}`, values: ['a', 'b'] },
  ];
  const rules = Array.from({ length: 24 }, (_, i) => ({
    name: `r${i}`,
    conditions: conditions(i),
    destination: `https://example.com/r${i}`,
  }));
  const split = {
    name: 'split',
    conditions: [{ type: 'device', op: 'in', values: ['mobile'] }],
    split: [
      { destination: 'https://example.com/a', weight: 50 },
      { destination: 'https://example.com/b', weight: 50 },
    ],
  };
  return { ...NO_DYNAMIC, rules: checkRules([...rules, split]), forwardQuery: true, utm: { source: 'poster', campaign: 'bench' } };
}

async function seedItem(database: DatabaseConfig, dynamic?: DynamicSettings) {
  const db = await openDatabase(database);
  const accountId = await new ApiKeysRepository(db).ensureAccount(`bench-${Date.now()}-${dynamic ? 'rules' : 'plain'}`);
  const item = await new QrItemsRepository(db).create(accountId, {
    title: 'bench',
    contentType: 'url',
    payload: 'https://example.com/',
    fields: {},
    design: resolveDesign(undefined),
    dynamic,
  });
  await db.close();
  return { accountId, itemId: item.id, code: item.code };
}

/** An account of `count` codes, and a file of the active ones' codes for the load child. */
async function seedSpread(database: DatabaseConfig, count: number): Promise<string> {
  const db = await openDatabase(database);
  const accountId = await new ApiKeysRepository(db).ensureAccount(`bench-spread-${Date.now()}`);
  await seedCodes(db, accountId, count, 's');
  const rows = await db.kysely
    .selectFrom('qr_items')
    .select('code')
    .where('account_id', '=', accountId)
    .where('active', '=', db.codec.bool(true))
    .execute();
  await db.close();
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'qrtrack-spread-')), 'codes.txt');
  fs.writeFileSync(file, rows.map((r) => r.code).join('\n'));
  return file;
}

/** Scans in the log (every one logged, applied or not): the highest id. */
async function loggedScans(database: DatabaseConfig): Promise<number> {
  const db = await openDatabase(database);
  const row = await db.kysely
    .selectFrom('scans')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  await db.close();
  return Number(row?.id ?? 0);
}

/**
 * BENCH_VACUUM=1: VACUUM (ANALYZE) a PostgreSQL database before each of its rounds, outside the
 * measurement, as autovacuum would keep a served database (a server with autovacuum off, as on
 * the test machine, lets the roll-ups' dead rows pile up round after round).
 */
const VACUUM_BETWEEN_ROUNDS = process.env.BENCH_VACUUM === '1';

async function vacuumPostgres(database: DatabaseConfig): Promise<void> {
  if (database.kind !== 'postgres') return;
  const db = await openDatabase(database);
  await sql`vacuum (analyze)`.execute(db.kysely);
  await db.close();
}

async function storedScans(database: DatabaseConfig, accountId: string, itemId: string): Promise<number> {
  const db = await openDatabase(database);
  const item = await new QrItemsRepository(db).find(accountId, itemId);
  await db.close();
  return item?.scanCount ?? 0;
}

export async function runRedirectBench(targets: RedirectTarget[], o: RedirectBenchOptions): Promise<ResultRow[]> {
  const bare = await startBareRedirectServer();
  const servers = [];
  try {
    for (const t of targets) {
      const seeded = await seedItem(t.database);
      const routed = await seedItem(t.database, heaviestRouting());
      const spreadFile = await seedSpread(t.database, o.spreadCodes);
      const port = await freePortNumber();
      const server = await spawnServer(
        [process.execPath, '--import', 'tsx', path.join(ROOT, 'src/server.ts')],
        { DATABASE_URL: t.databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
        `http://127.0.0.1:${port}/healthz`,
      );
      servers.push({
        t,
        server,
        seeded,
        url: `http://127.0.0.1:${port}/r/${seeded.code}`,
        results: [] as LoadResult[],
        routedUrl: `http://127.0.0.1:${port}/r/${routed.code}?utm_medium=print&ref=bench`,
        routedResults: [] as LoadResult[],
        lag: [] as { p99Seconds: number; maxSeconds: number; catchUpSeconds: number }[],
        base: `http://127.0.0.1:${port}`,
        spreadFile,
        spreadResults: [] as LoadResult[],
        spreadLag: [] as { p99Seconds: number; maxSeconds: number; catchUpSeconds: number }[],
        /** PostgreSQL CPU seconds and scans logged during the hot-code rounds. */
        cpu: { seconds: 0, scans: 0 },
      });
    }
    const bareResults: LoadResult[] = [];
    /** The bare server driven by the spread load's own generator: autocannon building each request in JS is slower than its fixed one. */
    const bareSpreadResults: LoadResult[] = [];
    const load = { connections: o.connections, durationSeconds: o.durationSeconds, headers: { 'user-agent': IPHONE } };
    // Each round starts on a quiet machine: the databases' after-work (autovacuum, checkpoints)
    // must not land on the next measurement, most often the ceiling.
    let quietest = 1;
    const measureSettled = async (url: string) => {
      quietest = Math.min(quietest, await settle());
      return measure(url, load);
    };
    for (let round = 0; round < o.rounds; round++) {
      bareResults.push(await measureSettled(bare.url));
      const firstFile = servers[0]?.spreadFile;
      if (firstFile !== undefined) {
        quietest = Math.min(quietest, await settle());
        bareSpreadResults.push(await measureSpread(bare.url, firstFile, load));
      }
      for (const s of servers) {
        if (VACUUM_BETWEEN_ROUNDS) await vacuumPostgres(s.t.database);
        quietest = Math.min(quietest, await settle());
        const lag = await sampleLag(s.t.database);
        const cpuBefore = s.t.database.kind === 'postgres' ? await postgresCpuSeconds() : null;
        const loggedBefore = await loggedScans(s.t.database);
        s.results.push(await measure(s.url, load));
        s.lag.push(await lag.stop());
        const cpuAfter = cpuBefore === null ? null : await postgresCpuSeconds();
        if (cpuBefore !== null && cpuAfter !== null) {
          s.cpu.seconds += cpuAfter - cpuBefore;
          s.cpu.scans += (await loggedScans(s.t.database)) - loggedBefore;
        }
        s.routedResults.push(await measureSettled(s.routedUrl));
        quietest = Math.min(quietest, await settle());
        const spreadLag = await sampleLag(s.t.database);
        s.spreadResults.push(await measureSpread(s.base, s.spreadFile, load));
        s.spreadLag.push(await spreadLag.stop());
      }
    }
    const ceiling = medianResult(bareResults);
    const rows: ResultRow[] = [
      {
        name: 'bare node http 302 (ceiling)',
        value: ceiling.rps,
        unit: 'req/s',
        extra: `p50 ${ceiling.p50} ms, p99 ${ceiling.p99} ms; median of ${o.rounds}; machine idle before each round ≥ ${Math.floor(quietest * 100)}%`,
      },
    ];
    const spreadCeiling = medianResult(bareSpreadResults);
    rows.push({
      name: 'bare node http 302, random paths (ceiling of the spread rows)',
      value: spreadCeiling.rps,
      unit: 'req/s',
      extra: `the same server under the spread load's generator (a random code per request); p50 ${spreadCeiling.p50} ms, p99 ${spreadCeiling.p99} ms`,
    });
    for (const s of servers) {
      await s.server.close();
      const ours = medianResult(s.results);
      const stored = await storedScans(s.t.database, s.seeded.accountId, s.seeded.itemId);
      const ratios = s.results.map((r, i) => r.rps / (bareResults[i]?.rps ?? Number.NaN)).map((x) => x.toFixed(2));
      rows.push({
        name: `${s.t.label} /r/{code} with scan recording`,
        value: ours.rps,
        unit: 'req/s',
        ratio: ours.rps / ceiling.rps,
        baseline: 'bare http 302',
        extra: `p50 ${ours.p50} ms, p99 ${ours.p99} ms, errors ${ours.errors + ours.non2xx3xx}; per-round ratios ${ratios.join(' ')}; ${stored.toLocaleString('en-US')} scans stored`,
      });
      const spread = medianResult(s.spreadResults);
      const spreadRatios = s.spreadResults.map((r, i) => r.rps / (bareSpreadResults[i]?.rps ?? Number.NaN)).map((x) => x.toFixed(2));
      rows.push({
        name: `${s.t.label} /r/{code} spread over ${o.spreadCodes.toLocaleString('en-US')} codes`,
        value: spread.rps,
        unit: 'req/s',
        ratio: spread.rps / spreadCeiling.rps,
        baseline: 'bare, random paths',
        extra: `each request a random code of the account (a few landing pages and paused codes among them); p50 ${spread.p50} ms, p99 ${spread.p99} ms; per-round ratios ${spreadRatios.join(' ')}`,
      });
      if (s.cpu.scans > 0)
        rows.push({
          name: `${s.t.label} CPU per scan (the rounds above, aggregation included)`,
          value: Math.round((s.cpu.seconds / s.cpu.scans) * 1e6),
          unit: 'µs',
          extra: `${s.cpu.seconds.toFixed(1)} s of CPU of every postgres process over ${s.cpu.scans.toLocaleString('en-US')} scans, from /proc, until the roll-ups caught up (other clients of the server count too)`,
        });
      const worst = (f: (l: (typeof s.lag)[number]) => number, of = s.lag) => Math.max(...of.map(f)).toFixed(2);
      rows.push({
        name: `${s.t.label} aggregator lag during the spread rounds`,
        value: Number(worst((l) => l.p99Seconds, s.spreadLag)),
        unit: 's p99',
        extra: `a scan each of many codes costs the roll-ups a row each; worst round: max ${worst((l) => l.maxSeconds, s.spreadLag)} s, caught up ${worst((l) => l.catchUpSeconds, s.spreadLag)} s after the load stopped`,
      });
      rows.push({
        name: `${s.t.label} aggregator lag during the hot-code rounds`,
        value: Number(worst((l) => l.p99Seconds)),
        unit: 's p99',
        extra: `age of the oldest scan not yet in the roll-ups, sampled every 100 ms; worst round: max ${worst((l) => l.maxSeconds)} s, caught up ${worst((l) => l.catchUpSeconds)} s after the load stopped`,
      });
      const routed = medianResult(s.routedResults);
      const routedRatios = s.routedResults.map((r, i) => r.rps / (bareResults[i]?.rps ?? Number.NaN)).map((x) => x.toFixed(2));
      rows.push({
        name: `${s.t.label} /r/{code} with 25 rules, a split, passthrough and UTM`,
        value: routed.rps,
        unit: 'req/s',
        ratio: routed.rps / ceiling.rps,
        baseline: 'bare http 302',
        extra: `p50 ${routed.p50} ms, p99 ${routed.p99} ms, errors ${routed.errors + routed.non2xx3xx}; per-round ratios ${routedRatios.join(' ')}; ${(routed.rps / ours.rps).toFixed(2)} of the plain code's rate`,
      });
    }
    return rows;
  } finally {
    await bare.close();
    for (const s of servers) await s.server.close();
  }
}
