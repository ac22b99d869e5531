// The redirect hot path: a bare Node http server answering 302 (the ceiling on this
// machine) against our /r/{code} with scan recording, in the same run, under the
// same load (autocannon in its own process, loopback only, bounded in time).
import path from 'node:path';
import type { DatabaseConfig } from '../src/config.ts';
import { ApiKeysRepository } from '../src/db/api-keys-repository.ts';
import { openDatabase } from '../src/db/database.ts';
import { QrItemsRepository } from '../src/db/qr-items-repository.ts';
import { resolveDesign } from '../src/domain/design.ts';
import { type LoadResult, measure, spawnServer, startBareRedirectServer } from './http-load.ts';
import type { ResultRow } from './result-row.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

export interface RedirectBenchOptions {
  connections: number;
  durationSeconds: number;
}

export async function measureBare(o: RedirectBenchOptions): Promise<LoadResult> {
  const bare = await startBareRedirectServer();
  try {
    return await measure(bare.url, { connections: o.connections, durationSeconds: o.durationSeconds });
  } finally {
    await bare.close();
  }
}

/** Starts a real qrtrack process on `database` and drives one item's short link. */
export async function measureRedirect(database: DatabaseConfig, databaseUrl: string, o: RedirectBenchOptions, port: number) {
  const db = await openDatabase(database);
  const accountId = await new ApiKeysRepository(db).ensureAccount(`bench-${Date.now()}`);
  const items = new QrItemsRepository(db);
  const item = await items.create(accountId, { title: 'bench', contentType: 'url', payload: 'https://example.com/', fields: {}, design: resolveDesign(undefined) });
  await db.close();

  const server = await spawnServer(
    [process.execPath, '--import', 'tsx', path.join(ROOT, 'src/server.ts')],
    { DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    `http://127.0.0.1:${port}/healthz`,
  );
  let load: LoadResult;
  try {
    load = await measure(`http://127.0.0.1:${port}/r/${item.code}`, { connections: o.connections, durationSeconds: o.durationSeconds, headers: { 'user-agent': IPHONE } });
  } finally {
    await server.close();
  }
  const check = await openDatabase(database);
  const stored = await new QrItemsRepository(check).find(accountId, item.id);
  await check.close();
  return { load, scansStored: stored?.scanCount ?? 0 };
}

export function redirectRows(label: string, bare: LoadResult, ours: LoadResult, scansStored: number): ResultRow[] {
  return [
    { name: `${label} /r/{code} with scan recording`, value: ours.rps, unit: 'req/s', ratio: ours.rps / bare.rps, baseline: 'bare http 302', extra: `p50 ${ours.p50} ms, p99 ${ours.p99} ms, errors ${ours.errors + ours.non2xx3xx}, scans stored ${scansStored.toLocaleString('en-US')}` },
  ];
}
