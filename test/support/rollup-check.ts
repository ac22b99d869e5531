// The roll-ups recomputed from the scan log from scratch, and every roll-up table read back, so a
// test can say "the roll-ups equal the log up to the cursor" after any workload.
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.ts';
import { LOGGED_SCAN_COLUMNS, type LoggedScanRow, toLoggedScan } from '../../src/db/scans/logged-scan.ts';
import { isBlocked, scanDay, sumBatch } from '../../src/domain/scans/scan-batch.ts';

export type RollupSnapshot = Record<string, Record<string, string>>;

/** The roll-ups as the log up to the roll-ups' cursor says they must be. */
export async function expectedRollups(db: Db): Promise<{ snapshot: RollupSnapshot; position: number; logged: number }> {
  const cursor = await db.kysely.selectFrom('log_cursors').select('position').where('name', '=', 'rollups').executeTakeFirstOrThrow();
  const position = Number(cursor.position);
  const rows = await sql<LoggedScanRow>`select ${sql.raw(LOGGED_SCAN_COLUMNS)} from scans s join qr_items q on q.id = s.item_id
    where s.id <= ${position} order by s.id`.execute(db.kysely);
  const all = await sql<{ n: number | string }>`select count(*) as n from scans`.execute(db.kysely);
  const scans = rows.rows.map(toLoggedScan);
  const seen = new Set<string>();
  const isNew = scans.map((s) => {
    if (s.isBot || isBlocked(s)) return false;
    const key = `${s.itemId}|${scanDay(s)}|${s.visitorHash}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const d = sumBatch(scans, isNew);
  const snap: RollupSnapshot = {
    items: {},
    totals: {},
    buckets: {},
    dims: {},
    quarterDims: {},
    running: {},
    accountBuckets: {},
    accountDims: {},
    accountQuarterDims: {},
  };
  const add = (table: string, key: string, values: number[]) => {
    const t = snap[table] as Record<string, string>;
    const prev = t[key]?.split(',').map(Number) ?? values.map(() => 0);
    t[key] = values.map((v, i) => v + (prev[i] ?? 0)).join(',');
  };
  for (const i of d.items) {
    add('items', i.itemId, [i.scans, i.uniqueScans, i.botScans]);
    if (i.scans > 0) add('totals', i.itemId, [i.scans]);
  }
  for (const b of d.buckets) add('buckets', `${b.itemId}|${b.bucket}`, [b.scans, b.uniqueScans, b.botScans]);
  for (const x of d.dims) add('dims', `${x.itemId}|${x.day}|${x.dim}|${x.value}`, [x.scans]);
  for (const x of d.quarterDims) add('quarterDims', `${x.itemId}|${x.bucket}|${x.dim}|${x.value}`, [x.scans]);
  for (const b of d.accountBuckets) add('accountBuckets', `${b.accountId}|${b.bucket}`, [b.scans, b.uniqueScans, b.botScans]);
  for (const x of d.accountDims) add('accountDims', `${x.accountId}|${x.day}|${x.dim}|${x.value}`, [x.scans]);
  for (const x of d.accountQuarterDims) add('accountQuarterDims', `${x.accountId}|${x.bucket}|${x.dim}|${x.value}`, [x.scans]);
  // Running totals: per item, the cumulative scans and uniques at the end of each day it was scanned.
  const byItem = new Map<string, { day: string; scans: number; uniqueScans: number }[]>();
  for (const x of d.itemDays) {
    const list = byItem.get(x.itemId) ?? [];
    list.push(x);
    byItem.set(x.itemId, list);
  }
  for (const [itemId, days] of byItem) {
    let scansSoFar = 0;
    let uniquesSoFar = 0;
    for (const x of days.sort((a, b) => (a.day < b.day ? -1 : 1))) {
      scansSoFar += x.scans;
      uniquesSoFar += x.uniqueScans;
      add('running', `${itemId}|${x.day}`, [scansSoFar, uniquesSoFar]);
    }
  }
  // Rows of zeros (a code with only refused scans) are left out, as in storedRollups().
  for (const t of Object.values(snap)) for (const [k, v] of Object.entries(t)) if (v.split(',').every((n) => n === '0')) delete t[k];
  return { snapshot: snap, position, logged: Number(all.rows[0]?.n ?? 0) };
}

/** Every roll-up table as stored, in the same shape (rows of zeros left out). */
export async function storedRollups(db: Db): Promise<RollupSnapshot> {
  const snap: RollupSnapshot = {};
  const read = async (table: string, query: string, keys: string[], values: string[]) => {
    const t: Record<string, string> = {};
    const rows = await sql<Record<string, unknown>>`${sql.raw(query)}`.execute(db.kysely);
    for (const r of rows.rows) {
      const v = values.map((c) => Number(r[c]));
      if (v.every((n) => n === 0)) continue;
      t[keys.map((k) => String(r[k])).join('|')] = v.join(',');
    }
    snap[table] = t;
  };
  await read(
    'items',
    'select id, scan_count, unique_scan_count, bot_scan_count from qr_items',
    ['id'],
    ['scan_count', 'unique_scan_count', 'bot_scan_count'],
  );
  await read('totals', 'select item_id, scans from item_scan_totals', ['item_id'], ['scans']);
  await read('buckets', 'select * from scan_buckets', ['item_id', 'bucket'], ['scans', 'unique_scans', 'bot_scans']);
  await read('dims', 'select * from scan_dims_daily', ['item_id', 'day', 'dim', 'value'], ['scans']);
  await read('quarterDims', 'select * from scan_dims_quarter', ['item_id', 'bucket', 'dim', 'value'], ['scans']);
  await read('running', 'select * from item_running_totals', ['item_id', 'day'], ['scans', 'unique_scans']);
  await read('accountBuckets', 'select * from account_buckets', ['account_id', 'bucket'], ['scans', 'unique_scans', 'bot_scans']);
  await read('accountDims', 'select * from account_dims_daily', ['account_id', 'day', 'dim', 'value'], ['scans']);
  await read('accountQuarterDims', 'select * from account_dims_quarter', ['account_id', 'bucket', 'dim', 'value'], ['scans']);
  return snap;
}
