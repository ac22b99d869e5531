// Bulk create through POST /v1/qr/batch: codes stored per second, a thousand per
// request, the way an import or a print run sends them. The baseline in the same run is
// the single create route, one code per request.
import { buildApp } from '../src/app.ts';
import { type DatabaseConfig, loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { generateApiKey, parseScopes } from '../src/domain/accounts/api-key.ts';
import type { ResultRow } from './result-row.ts';

const KINDS = [
  (i: number) => ({ title: `Ticket ${i}`, url: `https://example.com/t/${i}` }),
  (i: number) => ({ title: `Seat ${i}`, contentType: 'text', text: `Row ${i % 40}, seat ${i}` }),
  (i: number) => ({ title: `Hall ${i}`, contentType: 'wifi', wifiSsid: `Hall ${i % 9}`, wifiPass: 'secret', dotsStyle: 'rounded' }),
];

export async function runBatchBench(database: DatabaseConfig, databaseUrl: string, label: string, batches: number): Promise<ResultRow[]> {
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'silent',
    PUBLIC_BASE_URL: 'http://bench.test',
    RATE_LIMIT_PER_MINUTE: '1000000',
  });
  const db = await openDatabase(database);
  const { app, services } = await buildApp(config, db);
  await app.ready();
  const accountId = await services.keys.ensureAccount('batch-bench');
  const k = generateApiKey();
  await services.keys.createKey({ accountId, name: 'bench', prefix: k.prefix, hash: k.hash, scopes: parseScopes('qr:write') });
  const headers = { authorization: `Bearer ${k.key}`, 'content-type': 'application/json' };
  const body = (n: number, offset: number) =>
    JSON.stringify({ items: Array.from({ length: n }, (_, i) => (KINDS[i % KINDS.length] as (i: number) => object)(offset + i)) });

  // Warm-up, then the measured batches, each with its body built beforehand.
  await app.inject({ method: 'POST', url: '/v1/qr/batch', headers, payload: body(1000, 0) });
  const payloads = Array.from({ length: batches }, (_, b) => body(1000, (b + 1) * 1000));
  const t0 = process.hrtime.bigint();
  for (const payload of payloads) {
    const res = await app.inject({ method: 'POST', url: '/v1/qr/batch', headers, payload });
    if (res.statusCode !== 201) throw new Error(`batch: ${res.statusCode} ${res.body.slice(0, 200)}`);
  }
  const batchSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const batchRate = (batches * 1000) / batchSeconds;

  const singles = 2000;
  const singlePayloads = Array.from({ length: singles }, (_, i) => JSON.stringify((KINDS[i % KINDS.length] as (i: number) => object)(i)));
  const t1 = process.hrtime.bigint();
  for (const payload of singlePayloads) {
    const res = await app.inject({ method: 'POST', url: '/v1/qr', headers, payload });
    if (res.statusCode !== 201) throw new Error(`create: ${res.statusCode}`);
  }
  const singleRate = singles / (Number(process.hrtime.bigint() - t1) / 1e9);
  await app.close();
  await db.close();
  return [
    {
      name: `${label} POST /v1/qr/batch, ${batches} × 1,000 codes`,
      value: batchRate,
      unit: 'codes/s',
      ratio: batchRate / singleRate,
      baseline: `POST /v1/qr one at a time: ${Math.round(singleRate).toLocaleString('en-US')} codes/s`,
      extra: `${((batchSeconds / batches) * 1000).toFixed(0)} ms per batch`,
    },
  ];
}
