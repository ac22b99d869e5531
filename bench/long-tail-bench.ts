// A long tail: one account of many codes (1M, 100k with --quick) and scans over all of them (10M,
// 1M with --quick: each code once, the rest skewed towards a tenth of the codes), written through
// the real writer and applied by the real aggregator. Reports how fast the aggregator applies a
// long tail (each slice touches many distinct rows, the worst case for roll-ups) and the size of
// the log and of each roll-up table per million scans.
import { sql } from 'kysely';
import type { DatabaseConfig } from '../src/config.ts';
import { ApiKeysRepository } from '../src/db/accounts/api-keys-repository.ts';
import { openDatabase } from '../src/db/database.ts';
import { createScanWriter } from '../src/db/scans/scan-writer.ts';
import { createAggregator } from '../src/db/scans/rollup-aggregator.ts';
import { seedCodes } from './list-seed.ts';
import type { ResultRow } from './result-row.ts';
import { recordScans, syntheticScans } from './scan-seed.ts';

const TABLES = [
  'scans',
  'scan_buckets',
  'scan_dims_daily',
  'scan_dims_quarter',
  'scan_visitors',
  'item_running_totals',
  'item_scan_totals',
  'account_buckets',
  'account_dims_daily',
  'account_dims_quarter',
] as const;

const MIX = {
  seed: 17,
  spanDays: 60,
  devices: ['mobile', 'mobile', 'tablet', 'desktop'],
  oses: ['iOS', 'Android', 'Windows', null],
  browsers: ['Safari', 'Chrome', 'Samsung Internet', null],
  countries: ['DE', 'US', 'FR', 'GB', 'IN', null],
  referrers: [null, null, 't.co', 'www.instagram.com'],
};

export async function runLongTailBench(
  database: DatabaseConfig,
  label: string,
  size: { codes: number; scans: number },
): Promise<ResultRow[]> {
  const db = await openDatabase(database);
  try {
    const accountId = await new ApiKeysRepository(db).ensureAccount('long-tail');
    await seedCodes(db, accountId, size.codes, 'l');
    const ids = (await db.kysely.selectFrom('qr_items').select('id').where('account_id', '=', accountId).execute()).map((r) => r.id);
    // Every code scanned once, in a scattered order, then the rest skewed towards the first of
    // that order (syntheticScans): at 1M codes and 10M scans, about 46 % of those on a tenth.
    const uniform = ids.map((_, i) => ids[(i * 7_919) % ids.length] as string);
    const writer = createScanWriter(db);
    const aggregator = createAggregator(db);
    const started = performance.now();
    await recordScans(writer, syntheticScans(uniform, accountId, size.scans, MIX));
    await writer.drain();
    const written = (performance.now() - started) / 1000;
    const applyStarted = performance.now();
    // At the aggregator's long-tail rate (1-4k scans a second here) 10M scans take one to three
    // hours; past the limit the figures are of what was applied by then.
    const limitMs = catchUpLimitMs();
    const whole = await aggregator.catchUp(limitMs).then(
      () => true,
      () => false,
    );
    const seconds = (performance.now() - applyStarted) / 1000;
    const appliedScans = whole ? size.scans : await scansApplied(db);
    // The roll-ups hold the scans applied; the log holds them all.
    const millions = appliedScans / 1e6;
    const sizes = await tableSizes(db, database.kind);
    const rows: ResultRow[] = [
      {
        name: `${label} long tail: log ${size.scans.toLocaleString('en-US')} scans over ${size.codes.toLocaleString('en-US')} codes`,
        value: Math.round(size.scans / written),
        unit: 'scans/s',
        extra: `appended through the writer in ${written.toFixed(0)} s (no roll-ups on this path)`,
      },
      {
        name: `${label} long tail: aggregator applies it`,
        value: Math.round(appliedScans / seconds),
        unit: 'scans/s',
        extra: whole
          ? `${seconds.toFixed(0)} s for the whole log, in slices, after the writes`
          : `${appliedScans.toLocaleString('en-US')} of the log's scans applied in the limit of ${seconds.toFixed(0)} s (BENCH_CATCH_UP_MINUTES); the roll-ups' sizes below are per million of those`,
      },
    ];
    for (const t of TABLES) {
      const bytes = sizes.get(t) ?? 0;
      const per = t === 'scans' ? size.scans / 1e6 : millions;
      rows.push({
        name: `${label} long tail: ${t} per million scans`,
        value: Math.round(bytes / per / 1_048_576),
        unit: 'MiB',
        extra: `${(bytes / 1_048_576).toFixed(0)} MiB in all, indexes included`,
      });
    }
    return rows;
  } finally {
    await db.close();
  }
}

/** How long the aggregator may take to apply the whole log (BENCH_CATCH_UP_MINUTES, 240 by default). */
function catchUpLimitMs(): number {
  const minutes = Number(process.env.BENCH_CATCH_UP_MINUTES ?? 240);
  if (!Number.isFinite(minutes) || minutes <= 0) throw new Error('BENCH_CATCH_UP_MINUTES: must be a positive number');
  return minutes * 60_000;
}

/** Scans at or below the roll-ups' cursor. */
async function scansApplied(db: Awaited<ReturnType<typeof openDatabase>>): Promise<number> {
  const r = await sql<{ n: number | string }>`select count(*) as n from scans
    where id <= (select position from log_cursors where name = 'rollups')`.execute(db.kysely);
  return Number(r.rows[0]?.n ?? 0);
}

async function tableSizes(db: Awaited<ReturnType<typeof openDatabase>>, kind: DatabaseConfig['kind']): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (kind === 'postgres') {
    for (const t of TABLES) {
      // The log is partitioned by month (0020): its size is its partitions'.
      const r = await sql<{ n: string }>`select coalesce(sum(pg_total_relation_size(c.oid)), 0) as n from pg_class c
        where c.oid = ${t}::regclass or c.oid in (select inhrelid from pg_inherits where inhparent = ${t}::regclass)`.execute(db.kysely);
      out.set(t, Number(r.rows[0]?.n ?? 0));
    }
    return out;
  }
  // dbstat counts pages by table and index; an index is charged to its table.
  const r = await sql<{ tbl: string; bytes: number }>`select m.tbl_name as tbl, sum(d.pgsize) as bytes
    from dbstat d join sqlite_master m on m.name = d.name group by m.tbl_name`.execute(db.kysely);
  for (const row of r.rows) out.set(row.tbl, Number(row.bytes));
  return out;
}
