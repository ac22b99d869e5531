// Lists and search at 10k and at 1M codes in one account: every filter and `q` (a
// common word, a rare one, a miss, a two-letter query) through GET /v1/qr. The page must
// cost the same at both sizes: the 10k account is the baseline for the 1M one. The newest
// 200 codes of each are scanned in every quarter hour of 14 days, for the sparklines' rows.
import { buildApp } from '../src/app.ts';
import { type DatabaseConfig, loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { generateApiKey, parseScopes } from '../src/domain/accounts/api-key.ts';
import { seedBusyBuckets, seedCodes } from './list-seed.ts';
import { type ResultRow, percentile } from './result-row.ts';

const QUERIES: [string, string][] = [
  ['list', ''],
  ['list, page 3 by cursor', 'PAGE3'],
  ['active=false', 'active=false'],
  ['active=true', 'active=true'],
  ['contentType=wifi', 'contentType=wifi'],
  ['contentType=email&active=false', 'contentType=email&active=false'],
  ['q hit (a tenth of the codes)', 'q=Concert'],
  ['q rare hit (one code)', 'q=ticket%201234%20'],
  ['q miss', 'q=zebra'],
  ['q two letters', 'q=ga'],
  ['q hit + active=false', 'q=autumn&active=false'],
  // Every code on the page scanned in every quarter hour of the 14 days: the most roll-up rows a page can read.
  ['include=sparkline, busiest codes', 'include=sparkline&tz=Europe%2FBerlin'],
  ['include=sparkline&limit=200, busiest codes', 'include=sparkline&tz=Europe%2FBerlin&limit=200'],
  ['limit=200 (the baseline of the line above)', 'limit=200'],
];

export async function runListBench(
  database: DatabaseConfig,
  databaseUrl: string,
  label: string,
  sizes: [number, number],
  runs = 500,
): Promise<ResultRow[]> {
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'silent',
    PUBLIC_BASE_URL: 'http://bench.test',
    RATE_LIMIT_PER_MINUTE: '1000000',
  });
  const db = await openDatabase(database);
  const { app, services } = await buildApp(config, db);
  await app.ready();
  const keys: string[] = [];
  const seeded: number[] = [];
  for (const [i, n] of sizes.entries()) {
    const accountId = await services.keys.ensureAccount(`list-bench-${n}`);
    const t0 = Date.now();
    await seedCodes(db, accountId, n, i === 0 ? 'a' : 'b');
    await seedBusyBuckets(db, accountId, 200, 14);
    seeded.push((Date.now() - t0) / 1000);
    const k = generateApiKey();
    await services.keys.createKey({ accountId, name: 'bench', prefix: k.prefix, hash: k.hash, scopes: parseScopes('qr:read') });
    keys.push(k.key);
  }
  const get = async (key: string, qs: string) => {
    const res = await app.inject({ method: 'GET', url: `/v1/qr?${qs}`, headers: { authorization: `Bearer ${key}` } });
    if (res.statusCode !== 200) throw new Error(`${qs}: ${res.statusCode} ${res.body}`);
    return res.json() as { items: unknown[]; nextCursor: string | null };
  };
  const rows: ResultRow[] = [];
  for (const [name, query] of QUERIES) {
    const qsFor: string[] = [];
    for (const key of keys) {
      let qs = query;
      if (query === 'PAGE3') {
        const p1 = await get(key, '');
        const p2 = await get(key, `cursor=${p1.nextCursor}`);
        qs = `cursor=${p2.nextCursor}`;
      }
      qsFor.push(qs);
    }
    const counts: number[] = [];
    for (const [i, key] of keys.entries()) for (let w = 0; w < 20; w++) counts[i] = (await get(key, qsFor[i] ?? '')).items.length;
    // The two accounts take turns, so the shared machine's noise falls on both alike.
    const times: number[][] = keys.map(() => []);
    for (let r = 0; r < runs; r++) {
      for (const [i, key] of keys.entries()) {
        const t0 = process.hrtime.bigint();
        await get(key, qsFor[i] ?? '');
        times[i]?.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
    }
    const results = times.map((t, i) => {
      t.sort((a, b) => a - b);
      return { p50: percentile(t, 50), p99: percentile(t, 99), count: counts[i] ?? 0 };
    });
    const [small, big] = results as [(typeof results)[0], (typeof results)[0]];
    // The sparklines' read runs on the event loop that answers short links (synchronously on
    // SQLite): how long the loop is held at a stretch while such a page is answered.
    const held = query.includes('sparkline') ? await longestLoopBlock(() => get(keys[1] ?? '', qsFor[1] ?? '')) : null;
    rows.push({
      name: `${label} GET /v1/qr ${name}, ${sizes[1].toLocaleString('en-US')} codes`,
      value: big.p99,
      unit: 'ms p99',
      ratio: big.p99 / small.p99,
      baseline: `${sizes[0].toLocaleString('en-US')} codes: p99 ${small.p99.toFixed(2)}, p50 ${small.p50.toFixed(2)} ms`,
      extra: `p50 ${big.p50.toFixed(2)} ms; ${big.count} items on the page${held ? `; event loop held at most ${held.p50.toFixed(1)} ms at a stretch (p50; max ${held.max.toFixed(1)})` : ''}`,
    });
  }
  rows.push({
    name: `${label} seeding ${sizes[1].toLocaleString('en-US')} codes in the database`,
    value: seeded[1] ?? 0,
    unit: 's',
    extra: `${sizes[0].toLocaleString('en-US')}: ${(seeded[0] ?? 0).toFixed(1)} s`,
  });
  await app.close();
  await db.close();
  return rows;
}

/** The longest stretch the event loop is held while `request` runs (a 1 ms timer's lateness), over 50 requests. */
async function longestLoopBlock(request: () => Promise<unknown>): Promise<{ p50: number; max: number }> {
  const blocks: number[] = [];
  for (let r = 0; r < 50; r++) {
    let last = performance.now();
    let worst = 0;
    const probe = setInterval(() => {
      const now = performance.now();
      worst = Math.max(worst, now - last - 1);
      last = now;
    }, 1);
    await request();
    await new Promise((resolve) => setTimeout(resolve, 3));
    clearInterval(probe);
    blocks.push(worst);
  }
  blocks.sort((a, b) => a - b);
  return { p50: percentile(blocks, 50), max: blocks[blocks.length - 1] ?? 0 };
}
