// Account overview latency for an account with 10,000 codes and 1,000,000 scans, against
// the same queries on an account with 100 codes and 10,000 scans in the same run. The
// scans go through the real scan writer (so the roll-ups are the ones production keeps),
// spread over 120 days and over every code, skewed so a few codes get most: every code
// is scanned in every range, which is the worst case for the top-codes probe per code.
import type { DatabaseConfig } from '../src/config.ts';
import { type Db, openDatabase } from '../src/db/database.ts';
import { AccountStatsRepository } from '../src/db/stats/account-stats-repository.ts';
import { ApiKeysRepository } from '../src/db/accounts/api-keys-repository.ts';
import { type ScanWriter, createSeedingWriter } from '../src/db/scans/scan-writer.ts';
import { accountStats } from '../src/domain/stats/account-stats.ts';
import type { ResultRow } from './result-row.ts';
import type { ScanMix } from './scan-seed.ts';
import { settle } from './settle.ts';
import { STATS_QUERIES, seedCodes, timeQuery } from './stats-seed.ts';

const MIX: ScanMix = {
  seed: 7,
  spanDays: 120,
  devices: ['mobile', 'mobile', 'mobile', 'tablet', 'desktop', 'other'],
  oses: ['iOS', 'Android', 'Android', 'Windows', 'macOS', 'Linux', 'iPadOS', null],
  browsers: ['Safari', 'Chrome', 'Samsung Internet', 'Instagram', 'Edge', 'Firefox', 'Facebook', 'Opera', null],
  countries: [
    'DE',
    'US',
    'FR',
    'GB',
    'NL',
    'ES',
    'IT',
    'PL',
    'SE',
    'AT',
    'CH',
    'BE',
    'DK',
    'NO',
    'FI',
    'IE',
    'PT',
    'CZ',
    'HU',
    'RO',
    'GR',
    'TR',
    'BR',
    'MX',
    'AR',
    'CA',
    'AU',
    'NZ',
    'JP',
    'KR',
    'IN',
    'ID',
    'TH',
    'VN',
    'ZA',
    'NG',
    'EG',
    'MA',
    'AE',
    null,
  ],
  referrers: [
    null,
    null,
    null,
    'www.instagram.com',
    't.co',
    'www.facebook.com',
    'l.instagram.com',
    'www.google.com',
    'www.linkedin.com',
    'web.whatsapp.com',
  ],
};

async function timeAccountStats(db: Db, accountId: string, days: number, tz: string, runs: number) {
  const source = new AccountStatsRepository(db);
  let idle = 1;
  const latency = await timeQuery(() => accountStats(source, { accountId, days, tz }), {
    warmups: 10,
    runs,
    // The machine is shared: start each measurement once it is quiet (or after 15 s whatever it is doing).
    beforeRuns: async () => {
      idle = await settle();
    },
  });
  return { ...latency, idle };
}

async function makeAccount(db: Db, codes: number, scans: number, writer: ScanWriter) {
  const accountId = await new ApiKeysRepository(db).ensureAccount(`overview-${codes}-${Date.now()}`);
  const titled = Array.from({ length: codes }, (_, i) => ({ title: `code ${i}`, payload: `https://example.com/${i}` }));
  const { seeded } = await seedCodes(db, writer, accountId, titled, scans, MIX);
  return { accountId, seeded };
}

export async function runAccountStatsBench(
  database: DatabaseConfig,
  label: string,
  size = { codes: 10_000, scans: 1_000_000 },
  runs = 200,
): Promise<ResultRow[]> {
  const db = await openDatabase(database);
  const writer = createSeedingWriter(db);
  const small = await makeAccount(db, 100, 10_000, writer);
  const big = await makeAccount(db, size.codes, size.scans, writer);
  await writer.drain();
  // What autovacuum does between bursts: measured right after a million updates of 10,000 rows,
  // PostgreSQL would read the backlog of dead row versions, not the account's data.
  if (db.pool) await db.pool.query('vacuum analyze');
  const rows: ResultRow[] = [];
  const sizeName = `${size.codes.toLocaleString('en-US')} codes, ${size.scans.toLocaleString('en-US')} scans`;
  for (const [days, tz] of STATS_QUERIES) {
    const base = await timeAccountStats(db, small.accountId, days, tz, runs);
    const { p50, p99, idle } = await timeAccountStats(db, big.accountId, days, tz, runs);
    rows.push({
      name: `${label} account stats, ${sizeName}, days=${days} tz=${tz}`,
      value: p99,
      unit: 'ms p99',
      extra: `p50 ${p50.toFixed(2)} ms; baseline p50 ${base.p50.toFixed(2)} ms; machine ${Math.round(idle * 100)}% idle at start; seeded in ${big.seeded.toFixed(0)} s`,
      ratio: p99 / base.p99,
      baseline: '100 codes, 10,000 scans, same query',
    });
  }
  await db.close();
  return rows;
}
