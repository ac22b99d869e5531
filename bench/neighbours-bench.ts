// Noisy neighbours: how long the short links of one account wait while another account's
// ordinary API requests run on the same server (issue #30). A server process answers; this
// process probes `/r/{code}` of a third account every 20 ms and, beside the probe, runs each
// request class in turn. The baseline is the probe alone, in the same run. The big account is
// seeded inside the database (bench/list-seed.ts), tagged on every code, so the rows measure
// the requests, not the seeding.
// Run alone: npx tsx bench/neighbours-bench.ts [--db sqlite|postgres|both] [--big] [--quick]
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { ApiKeysRepository } from '../src/db/accounts/api-keys-repository.ts';
import { type Db, openDatabase } from '../src/db/database.ts';
import { SearchIndexMerger } from '../src/db/sqlite/search-index-merger.ts';
import { QrItemsRepository } from '../src/db/qr-items/qr-items-repository.ts';
import type { DatabaseConfig } from '../src/config.ts';
import { generateApiKey, parseScopes } from '../src/domain/accounts/api-key.ts';
import { resolveDesign } from '../src/domain/design/design.ts';
import { spawnServer } from './http-load.ts';
import { seedCodes } from './list-seed.ts';
import { freePortNumber } from './ports.ts';
import { freshPostgres } from './postgres.ts';
import { type ResultRow, percentile, printResults } from './result-row.ts';
import { settle } from './settle.ts';
import { tempSqlite } from './stats-bench.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const PROBE_EVERY_MS = 20;
const TAG = 'campaign';
const UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

export interface NeighboursTarget {
  label: string;
  database: DatabaseConfig;
  databaseUrl: string;
}

export interface NeighboursOptions {
  /** Codes of the big account (200k; 1M with --big). */
  codes: number;
  /** Rows of the import (the issue's 200k; fewer with --quick). */
  importRows: number;
  /** A repeated request class runs at least this long beside the probe. */
  seconds: number;
}

interface Seeded {
  probeCode: string;
  bigKey: string;
  smallKey: string;
  importKey: string;
  bulkIds: string[];
}

/** The big account (codes, all tagged), a small one with a few https codes, the probe's account, and an account to import into. */
async function seed(db: Db, codes: number): Promise<Seeded> {
  const keys = new ApiKeysRepository(db);
  const items = new QrItemsRepository(db);
  const key = async (accountId: string, scopes: string) => {
    const k = generateApiKey();
    await keys.createKey({ accountId, name: 'bench', prefix: k.prefix, hash: k.hash, scopes: parseScopes(scopes) });
    return k.key;
  };
  const design = resolveDesign(undefined);
  const big = await keys.ensureAccount('neighbours-big');
  await seedCodes(db, big, codes, 'n');
  await sql`insert into qr_tags (tag_account_id, tag, tagged_item_id, item_created_at)
    select account_id, ${TAG}, id, created_at from qr_items where account_id = ${big}`.execute(db.kysely);
  const small = await keys.ensureAccount('neighbours-small');
  for (let i = 0; i < 10; i++)
    await items.create(small, { title: `small ${i}`, contentType: 'url', payload: `https://small.example/${i}`, fields: {}, design });
  const probe = await keys.ensureAccount('neighbours-probe');
  const probeItem = await items.create(probe, {
    title: 'probe',
    contentType: 'url',
    payload: 'https://example.com/probe',
    fields: {},
    design,
  });
  const importer = await keys.ensureAccount('neighbours-import');
  // 200 ids spread over the whole big account (seedCodes' id pattern).
  const step = Math.floor(codes / 200);
  const bulkIds = Array.from(
    { length: 200 },
    (_, i) => `${'n'.charCodeAt(0).toString(16).padStart(8, '0')}-0000-4000-8000-${((i + 1) * step).toString(16).padStart(12, '0')}`,
  );
  return {
    probeCode: probeItem.code,
    bigKey: await key(big, 'qr:read,qr:write'),
    smallKey: await key(small, 'qr:read'),
    importKey: await key(importer, 'qr:read,qr:write'),
    bulkIds,
  };
}

/** Probes the short link every 20 ms (each probe on its own, never waiting for the last) while `work` runs. */
async function probeDuring(url: string, work: () => Promise<void>): Promise<{ times: number[]; failed: number }> {
  const times: number[] = [];
  const pending = new Set<Promise<void>>();
  let failed = 0;
  const one = async () => {
    const t0 = performance.now();
    try {
      const res = await fetch(url, { redirect: 'manual', headers: { 'user-agent': UA } });
      await res.arrayBuffer();
      if (res.status !== 302) failed++;
      times.push(performance.now() - t0);
    } catch {
      failed++;
    }
  };
  const timer = setInterval(() => {
    const p = one();
    pending.add(p);
    void p.finally(() => pending.delete(p));
  }, PROBE_EVERY_MS);
  try {
    await work();
  } finally {
    clearInterval(timer);
    await Promise.all(pending);
  }
  return { times: times.sort((a, b) => a - b), failed };
}

/** Runs `request` again and again for at least `seconds` (at least once). */
function repeatFor(seconds: number, request: () => Promise<void>): () => Promise<void> {
  return async () => {
    const end = performance.now() + seconds * 1000;
    do await request();
    while (performance.now() < end);
  };
}

async function call(
  base: string,
  key: string,
  method: string,
  route: string,
  /** Bytes made once: encoding a 16 MiB string on every request would hold the probe's own thread here. */
  body?: { type: string; data: string | Buffer<ArrayBuffer> },
  expect?: number[],
): Promise<void> {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': body.type } : {}) },
    body: body?.data,
  });
  // Read and dropped as it comes, keeping its start for an error: an export is some 200 MB, and
  // gathering it into one buffer held this process's own thread, the probe's, 240-290 ms.
  let head = Buffer.alloc(0);
  const reader = res.body?.getReader();
  for (let read = await reader?.read(); reader && read && !read.done; read = await reader.read())
    if (head.length < 300) head = Buffer.concat([head, Buffer.from(read.value)]);
  if (expect ? !expect.includes(res.status) : res.status < 200 || res.status > 299)
    throw new Error(`${method} ${route}: ${res.status} ${head.toString('utf8').slice(0, 300)}`);
}

function importCsv(rows: number): string {
  const lines = ['title,contentType,payload'];
  for (let i = 0; i < rows; i++) lines.push(`imported ${i},url,https://example.org/i/${i}`);
  return lines.join('\n') + '\n';
}

function batchBody(items: number, payloadChars: number): string {
  const payload = 'https://example.org/' + 'x'.repeat(Math.max(0, payloadChars - 20));
  return JSON.stringify({ items: Array.from({ length: items }, (_, i) => ({ title: `batch ${i}`, contentType: 'url', payload })) });
}

export async function runNeighboursBench(target: NeighboursTarget, o: NeighboursOptions): Promise<ResultRow[]> {
  const t0 = performance.now();
  const db = await openDatabase(target.database);
  const seeded = await seed(db, o.codes);
  // A database of 200k codes in service has long been vacuumed, analysed and checkpointed, and
  // its SQLite search index merged. Seeded in seconds, PostgreSQL's autovacuum of it (and of its
  // trigram index's pending list) started during the first rows measured, and the probe's scans
  // waited for the WAL behind it: the first row's one spike, 54–141 ms, whichever request it
  // was. So the seed ends in that state.
  if (db.codec.dialect === 'postgres') {
    await sql`vacuum (analyze)`.execute(db.kysely);
    await sql`checkpoint`.execute(db.kysely);
  } else if (db.sqlite) {
    await new SearchIndexMerger(db.sqlite).drain();
    db.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  }
  await db.close();
  const seedSeconds = (performance.now() - t0) / 1000;
  const port = await freePortNumber();
  const base = `http://127.0.0.1:${port}`;
  const server = await spawnServer(
    [process.execPath, '--import', 'tsx', path.join(ROOT, 'src/server.ts')],
    { DATABASE_URL: target.databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000000' },
    `${base}/healthz`,
    120_000,
  );
  const { bigKey, smallKey, importKey, bulkIds } = seeded;
  const csv = Buffer.from(importCsv(o.importRows));
  const big16 = Buffer.from(batchBody(1_000, 16_000));
  const batch1000 = Buffer.from(batchBody(1_000, 40));
  let paused = false;
  const codes = o.codes.toLocaleString('en-US');
  const classes: [string, () => Promise<void>][] = [
    [
      'search q=https&limit=200 from a 10-code account',
      repeatFor(o.seconds, () => call(base, smallKey, 'GET', '/v1/qr?q=https&limit=200')),
    ],
    [
      `bulk pause/resume of 200 ids (${codes}-code account)`,
      repeatFor(o.seconds, async () => {
        paused = !paused;
        await call(base, bigKey, 'POST', '/v1/qr/bulk', {
          type: 'application/json',
          data: JSON.stringify({ action: paused ? 'pause' : 'resume', ids: bulkIds }),
        });
      }),
    ],
    [`tag=… & q=zz (tag of ${codes} codes)`, repeatFor(o.seconds, () => call(base, bigKey, 'GET', `/v1/qr?tag=${TAG}&q=zz`))],
    [`overview GET /v1/stats (${codes}-code account)`, repeatFor(o.seconds, () => call(base, bigKey, 'GET', '/v1/stats?days=30&tz=UTC'))],
    [`CSV export (${codes} codes)`, () => call(base, bigKey, 'GET', '/v1/qr/export?format=csv')],
    [`JSON export (${codes} codes)`, () => call(base, bigKey, 'GET', '/v1/qr/export?format=json')],
    [
      `import of ${o.importRows.toLocaleString('en-US')} rows`,
      () => call(base, importKey, 'POST', '/v1/qr/import', { type: 'text/csv', data: csv }),
    ],
    [
      'batch of 16 MiB refused by validation',
      repeatFor(o.seconds, () => call(base, importKey, 'POST', '/v1/qr/batch', { type: 'application/json', data: big16 }, [400])),
    ],
    [
      'batch of 1,000 items',
      repeatFor(o.seconds, () => call(base, importKey, 'POST', '/v1/qr/batch', { type: 'application/json', data: batch1000 })),
    ],
    [
      `tag rename (${codes} codes)`,
      () => call(base, bigKey, 'PATCH', `/v1/tags/${TAG}`, { type: 'application/json', data: JSON.stringify({ name: 'renamed' }) }),
    ],
    [`tag delete (${codes} codes)`, () => call(base, bigKey, 'DELETE', '/v1/tags/renamed')],
  ];
  const rows: ResultRow[] = [];
  try {
    const probeUrl = `${base}/r/${seeded.probeCode}`;
    // Warm the probe's code into the short-link cache and the JIT.
    await probeDuring(probeUrl, () => new Promise((resolve) => setTimeout(resolve, 1_000)));
    await settle();
    const idle = await probeDuring(probeUrl, () => new Promise((resolve) => setTimeout(resolve, o.seconds * 1000)));
    const idleP99 = percentile(idle.times, 99);
    process.stderr.write(`${target.label} seeded in ${seedSeconds.toFixed(1)} s; idle probe p99 ${idleP99.toFixed(1)} ms\n`);
    const baseline = `idle probe: p50 ${percentile(idle.times, 50).toFixed(1)}, p99 ${idleP99.toFixed(1)}, max ${(idle.times.at(-1) ?? 0).toFixed(1)} ms`;
    for (const [name, work] of classes) {
      await settle();
      const started = performance.now();
      const { times, failed } = await probeDuring(probeUrl, work);
      const took = (performance.now() - started) / 1000;
      const p99 = percentile(times, 99);
      // Progress on stderr: a whole run takes minutes.
      process.stderr.write(
        `${target.label} ${name}: p99 ${p99.toFixed(1)} ms, max ${(times.at(-1) ?? 0).toFixed(1)} ms, ${took.toFixed(1)} s\n`,
      );
      rows.push({
        name: `${target.label} /r/{code} p99 beside ${name}`,
        value: p99,
        unit: 'ms',
        ratio: p99 / idleP99,
        baseline,
        extra: `p50 ${percentile(times, 50).toFixed(1)}, max ${(times.at(-1) ?? 0).toFixed(1)} ms; ${times.length} probes over ${took.toFixed(1)} s${failed ? `, ${failed} failed` : ''}`,
      });
    }
  } finally {
    await server.close();
  }
  rows.push({ name: `${target.label} seeding the neighbours (${codes} codes, tagged)`, value: seedSeconds, unit: 's' });
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      db: { type: 'string', default: 'sqlite' },
      big: { type: 'boolean', default: false },
      quick: { type: 'boolean', default: false },
    },
  });
  const opts: NeighboursOptions = {
    codes: values.big ? 1_000_000 : 200_000,
    importRows: values.quick ? 20_000 : 200_000,
    seconds: values.quick ? 2 : 5,
  };
  const rows: ResultRow[] = [];
  if (values.db !== 'postgres') {
    const sqlite = tempSqlite();
    rows.push(...(await runNeighboursBench({ label: 'SQLite', database: sqlite.config, databaseUrl: `sqlite:${sqlite.file}` }, opts)));
    sqlite.dispose();
  }
  if (values.db !== 'sqlite') {
    const pg = await freshPostgres();
    rows.push(
      ...(await runNeighboursBench({ label: 'PostgreSQL', database: { kind: 'postgres', url: pg.url }, databaseUrl: pg.url }, opts)),
    );
    await pg.dispose();
  }
  printResults(rows);
}
