// Stats latency for an item with 10k and with 1M scans spread over 90 days: the
// cost must stay flat as scans grow, because stats read roll-ups, not raw scans.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DatabaseConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { type ScanWriter, createSeedingWriter } from '../src/db/scans/scan-writer.ts';
import { ApiKeysRepository } from '../src/db/accounts/api-keys-repository.ts';
import { StatsRepository } from '../src/db/stats/stats-repository.ts';
import { itemStats } from '../src/domain/stats/item-stats.ts';
import type { ResultRow } from './result-row.ts';
import type { ScanMix } from './scan-seed.ts';
import { STATS_QUERIES, seedCodes, timeQuery } from './stats-seed.ts';

const MIX: ScanMix = {
  seed: 42,
  spanDays: 90,
  devices: ['mobile', 'mobile', 'mobile', 'tablet', 'desktop'],
  oses: ['iOS', 'Android', 'Android', 'Windows', 'macOS'],
  browsers: ['Safari', 'Chrome', 'Samsung Internet', 'Instagram', 'Edge'],
  countries: ['DE', 'US', 'FR', 'GB', 'NL', 'ES', 'IT', 'PL', 'SE', null],
  referrers: [null, null, 'www.instagram.com', 't.co', 'www.facebook.com'],
};

export async function runStatsBench(database: DatabaseConfig, label: string, sizes = [10_000, 1_000_000]): Promise<ResultRow[]> {
  const db = await openDatabase(database);
  const writer: ScanWriter = createSeedingWriter(db);
  const accountId = await new ApiKeysRepository(db).ensureAccount(`bench-${Date.now()}`);
  const rows: ResultRow[] = [];
  let baseline: number | null = null;
  for (const n of sizes) {
    const { ids, seeded } = await seedCodes(db, writer, accountId, [{ title: `stats ${n}`, payload: 'https://example.com' }], n, MIX);
    const id = ids[0]!;
    for (const [days, tz] of STATS_QUERIES) {
      const source = new StatsRepository(db);
      const { p50, p99 } = await timeQuery(() => itemStats(source, { accountId, id, days, tz }), { warmups: 20, runs: 200 });
      if (days === 90 && tz === 'UTC' && baseline === null) baseline = p99;
      rows.push({
        name: `${label} stats, ${n.toLocaleString('en-US')} scans, days=${days} tz=${tz}`,
        value: p99,
        unit: 'ms p99',
        extra: `p50 ${p50.toFixed(2)} ms; seeded in ${seeded.toFixed(1)} s`,
        ratio: days === 90 && tz === 'UTC' && baseline !== null ? p99 / baseline : undefined,
        baseline: days === 90 && tz === 'UTC' ? '10k-scan item, same query' : undefined,
      });
    }
  }
  await writer.drain();
  await db.close();
  return rows;
}

export function tempSqlite(): { config: DatabaseConfig; file: string; dispose(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qrtrack-bench-'));
  const file = path.join(dir, 'bench.db');
  return { config: { kind: 'sqlite', file }, file, dispose: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
