// The roll-ups on PostgreSQL, applied from the scan log by one process at a time (an advisory
// lock): one slice is one statement of data-modifying CTEs that claims the day's new visitors
// and adds the summed deltas to the roll-ups and item counters, in the same transaction as the
// roll-ups' cursor moves past the slice. Counter rows are only ever incremented in place and
// touched in key order.
import { firstVisitsInBatch, scanDay, sumBatch, variantKey } from '../../domain/scans/scan-batch.ts';
import { bucketOf } from '../../domain/stats/scan-buckets.ts';
import { integerArray, textArray } from '../postgres/pg-array-literal.ts';
import type { LoggedScan } from './logged-scan.ts';

/** The statement's bigint[] parameters ($n); the rest are text[] (timestamptz[] for 18 and 19). */
const INTEGER_PARAMETERS = new Set([1, 5, 7, 8, 9, 14, 16, 17, 22, 23, 24, 29, 32, 35, 38, 40, 43]);

/**
 * The statement's 44 array parameters for a slice, in five steps (the sums, then a few columns at
 * a time): the caller lets the thread that answers short links take other work at each yield (a
 * spread slice of 2,000 scans is some 25,000 array elements, 15 to 25 ms in all). Only the items
 * are sorted here (their update takes rows in the order given); the statement orders the rest.
 */
export function* rollupParameterSteps(scans: readonly LoggedScan[]): Generator<void, string[], void> {
  const firsts = firstVisitsInBatch(scans);
  // Unique counts are the database's to decide (scan_visitors), so none are summed here.
  const deltas = sumBatch(scans, []);
  yield;
  const out = new Array<string>(44);
  // Parameter $n is cols[n - 1], written out as its array literal once filled.
  const cols: (string | number | null)[][] = Array.from({ length: 44 }, () => []);
  const col = (n: number) => cols[n - 1] as (string | number | null)[];
  const done = (...params: number[]) => {
    for (const n of params)
      out[n - 1] = INTEGER_PARAMETERS.has(n) ? integerArray(col(n) as number[]) : textArray(col(n) as (string | null)[]);
  };
  // A breakdown's five columns, from parameter `first` on: its key (item or account), its time
  // (day or quarter hour), the dimension, the value and the scans.
  const breakdown = <T extends { dim: string; value: string; scans: number }>(
    rows: readonly T[],
    first: number,
    key: (row: T) => string,
    time: (row: T) => string | number,
  ) => {
    for (const r of rows) {
      col(first).push(key(r));
      col(first + 1).push(time(r));
      col(first + 2).push(r.dim);
      col(first + 3).push(r.value);
      col(first + 4).push(r.scans);
    }
    done(first, first + 1, first + 2, first + 3, first + 4);
  };
  for (let i = 0; i < scans.length; i++) {
    if (!firsts[i]) continue;
    const s = scans[i] as LoggedScan;
    col(1).push(s.id);
    col(2).push(s.itemId);
    col(3).push(scanDay(s));
    col(4).push(s.visitorHash);
    col(5).push(bucketOf(s.ms ?? Date.parse(s.scannedAt)));
    col(20).push(s.accountId);
    col(44).push(variantKey(s.ruleId, s.variant));
  }
  for (const b of deltas.buckets) {
    col(6).push(b.itemId);
    col(7).push(b.bucket);
    col(8).push(b.scans);
    col(9).push(b.botScans);
  }
  for (const i of deltas.items.sort((a, b) => compare(a.itemId, b.itemId))) {
    col(15).push(i.itemId);
    col(16).push(i.scans);
    col(17).push(i.botScans);
    col(18).push(i.first);
    col(19).push(i.last);
    col(33).push(i.accountId);
  }
  for (const d of deltas.itemDays) {
    col(30).push(d.itemId);
    col(31).push(d.day);
    col(32).push(d.scans);
  }
  done(1, 2, 3, 4, 5, 20, 44, 6, 7, 8, 9, 15, 16, 17, 18, 19, 33, 30, 31, 32);
  yield;
  breakdown(
    deltas.dims,
    10,
    (d) => d.itemId,
    (d) => d.day,
  );
  yield;
  breakdown(
    deltas.quarterDims,
    34,
    (d) => d.itemId,
    (d) => d.bucket,
  );
  yield;
  for (const b of deltas.accountBuckets) {
    col(21).push(b.accountId);
    col(22).push(b.bucket);
    col(23).push(b.scans);
    col(24).push(b.botScans);
  }
  done(21, 22, 23, 24);
  breakdown(
    deltas.accountDims,
    25,
    (d) => d.accountId,
    (d) => d.day,
  );
  breakdown(
    deltas.accountQuarterDims,
    39,
    (d) => d.accountId,
    (d) => d.bucket,
  );
  return out;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const BUCKET_COUNTERS = ['scans', 'unique_scans', 'bot_scans'];

/**
 * The upsert that adds a batch's sums to a roll-up (per item or per account, buckets or
 * breakdowns alike): rows in key order, counters only ever incremented in place.
 */
function addToRollup(table: string, keys: readonly string[], counters: readonly string[], rows: string): string {
  const add = counters.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ');
  return `
      insert into ${table} (${[...keys, ...counters].join(', ')})${rows}
      order by ${keys.map((_, i) => i + 1).join(', ')}
      on conflict (${keys.join(', ')}) do update set ${add}
    `;
}

// unnest() of array parameters is estimated at a few rows, so the planner looks rows up by
// key; ORDER BY keeps each upsert's lock order equal to the sorted input. The account
// roll-ups are summed in the process like the item ones; their unique scans come from the
// same new visitors (uq). Running totals: existing rows from a batch day on grow by the
// batch's scans up to their day (rt_add); a day without a row starts from the last total
// before it plus ALL the batch's scans up to that day (rt_new): that total is read from the
// statement's snapshot, which does not hold the batch's scans on its own day or earlier (rt_add
// adds them to it in the same statement, unseen). One slice at a time holds the aggregator's
// lock, so no other statement writes these rows meanwhile (the race between two processes'
// batches around midnight that docs/decisions/account-stats.md describes is gone with it).
export const APPLY_SLICE = `
    with firsts as (
      select * from unnest($2::text[], $3::text[], $4::text[], $5::bigint[], $20::text[], $44::text[], $1::bigint[])
        as f(item_id, day, visitor_hash, bucket, account_id, variant, scan_id)
    ),
    nv as (
      insert into scan_visitors (item_id, day, visitor_hash, first_scan_id)
      select item_id, day, visitor_hash, scan_id from firsts order by 1, 2, 3
      on conflict do nothing returning item_id, day, visitor_hash
    ),
    uq as (
      select f.item_id, f.bucket, f.day, f.account_id, count(*) as n from firsts f join nv using (item_id, day, visitor_hash) group by 1, 2, 3, 4
    ),
    -- A split variant's unique scans: the new visitors of the batch, by the variant they got.
    vu as (
      select f.item_id, f.bucket, f.day, f.variant, count(*) as n
      from firsts f join nv using (item_id, day, visitor_hash) where f.variant is not null group by 1, 2, 3, 4
    ),
    uvd as (${addToRollup(
      'scan_dims_daily',
      ['item_id', 'day', 'dim', 'value'],
      ['scans'],
      `
      select item_id, day, 'variantUnique', variant, sum(n) from vu group by item_id, day, variant`,
    )}),
    uvq as (${addToRollup(
      'scan_dims_quarter',
      ['item_id', 'bucket', 'dim', 'value'],
      ['scans'],
      `
      select item_id, bucket, 'variantUnique', variant, sum(n) from vu group by item_id, bucket, variant`,
    )}),
    ub as (${addToRollup(
      'scan_buckets',
      ['item_id', 'bucket'],
      BUCKET_COUNTERS,
      `
      select b.item_id, b.bucket, b.scans, coalesce(uq.n, 0), b.bots
      from unnest($6::text[], $7::bigint[], $8::bigint[], $9::bigint[]) as b(item_id, bucket, scans, bots)
        left join uq using (item_id, bucket)`,
    )}),
    ud as (${addToRollup(
      'scan_dims_daily',
      ['item_id', 'day', 'dim', 'value'],
      ['scans'],
      `
      select * from unnest($10::text[], $11::text[], $12::text[], $13::text[], $14::bigint[]) as d(item_id, day, dim, value, n)`,
    )}),
    uqd as (${addToRollup(
      'scan_dims_quarter',
      ['item_id', 'bucket', 'dim', 'value'],
      ['scans'],
      `
      select * from unnest($34::text[], $35::bigint[], $36::text[], $37::text[], $38::bigint[]) as d(item_id, bucket, dim, value, n)`,
    )}),
    ua as (${addToRollup(
      'account_buckets',
      ['account_id', 'bucket'],
      BUCKET_COUNTERS,
      `
      select a.account_id, a.bucket, a.scans, coalesce(u.n, 0), a.bots
      from unnest($21::text[], $22::bigint[], $23::bigint[], $24::bigint[]) as a(account_id, bucket, scans, bots)
        left join (select account_id, bucket, sum(n) as n from uq group by 1, 2) u using (account_id, bucket)`,
    )}),
    uad as (${addToRollup(
      'account_dims_daily',
      ['account_id', 'day', 'dim', 'value'],
      ['scans'],
      `
      select * from unnest($25::text[], $26::text[], $27::text[], $28::text[], $29::bigint[]) as d(account_id, day, dim, value, n)`,
    )}),
    uaqd as (${addToRollup(
      'account_dims_quarter',
      ['account_id', 'bucket', 'dim', 'value'],
      ['scans'],
      `
      select * from unnest($39::text[], $40::bigint[], $41::text[], $42::text[], $43::bigint[]) as d(account_id, bucket, dim, value, n)`,
    )}),
    bd as (
      -- cn, cu: the item's scans and unique scans of the batch up to that day, summed once here.
      select d.item_id, d.day, d.n, coalesce(u.n, 0) as u,
        sum(d.n) over w as cn, sum(coalesce(u.n, 0)) over w as cu
      from unnest($30::text[], $31::text[], $32::bigint[]) as d(item_id, day, n)
        left join (select item_id, day, sum(n) as n from uq group by 1, 2) u using (item_id, day)
      window w as (partition by d.item_id order by d.day)
    ),
    -- The rows to grow, by their place in the table: the planner overestimates this range join
    -- (hundreds of thousands of rows for a few hundred), and joining its result back on the key
    -- made it hash the whole table; an array it cannot size is joined row by row (a TID scan).
    rt_grow as (
      select r2.tid, sum(bd.n) as n, sum(bd.u) as u
      from bd cross join lateral (
        -- Each of the slice's days an index probe whatever the plan: a generic plan (taken after
        -- five runs of this prepared statement) hashed the whole table here. OFFSET 0 keeps the
        -- planner from flattening the lateral into a plain join.
        select r.ctid as tid from item_running_totals r where r.item_id = bd.item_id and r.day >= bd.day offset 0
      ) r2
      group by 1
    ),
    rt_add as (
      update item_running_totals r set scans = r.scans + s.n, unique_scans = r.unique_scans + s.u
      from unnest(
        (select array_agg(tid order by tid) from rt_grow), (select array_agg(n order by tid) from rt_grow),
        (select array_agg(u order by tid) from rt_grow)
      ) as s(tid, n, u)
      where r.ctid = s.tid
    ),
    rt_new as (
      insert into item_running_totals (item_id, day, scans, unique_scans)
      select bd.item_id, bd.day, coalesce(p.scans, 0) + bd.cn, coalesce(p.unique_scans, 0) + bd.cu
      from bd left join lateral (
        select r.day, r.scans, r.unique_scans from item_running_totals r where r.item_id = bd.item_id and r.day <= bd.day order by r.day desc limit 1
      ) p on true
      -- A day that has its row already (the lookup found that day itself) is rt_add's. (Taking
      -- those here too made a conflict of each and a scan of the whole batch per conflict: a slice
      -- of 2,000 scans of as many codes spent most of its time here. A NOT EXISTS for it was a hash
      -- of the whole table each slice.)
      where p.day is distinct from bd.day
      order by 1, 2
      -- Another process made the row since this statement's snapshot: add this batch to it.
      on conflict (item_id, day) do update set
        scans = item_running_totals.scans + (select b2.cn from bd b2 where b2.item_id = excluded.item_id and b2.day = excluded.day),
        unique_scans = item_running_totals.unique_scans + (select b2.cu from bd b2 where b2.item_id = excluded.item_id and b2.day = excluded.day)
    ),
    ut as (
      insert into item_scan_totals (item_id, account_id, scans)
      select item_id, account_id, scans from unnest($15::text[], $33::text[], $16::bigint[]) as i(item_id, account_id, scans)
      where scans > 0
      order by 1
      on conflict (item_id) do update set scans = item_scan_totals.scans + excluded.scans
    ),
    -- Each new visitor is one of the item's unique scans. (Summed from uq, whose join the planner
    -- guesses at one row, this was a nested loop over the slice's codes for each code: half of a
    -- 2,000-scan slice's time over 100,000 codes.)
    iu as (select item_id, count(*) as n from nv group by 1)
    update qr_items q set scan_count = q.scan_count + i.scans, unique_scan_count = q.unique_scan_count + coalesce(iu.n, 0),
      bot_scan_count = q.bot_scan_count + i.bots, first_scan_at = least(q.first_scan_at, i.first),
      last_scan_at = greatest(q.last_scan_at, i.last)
    from unnest($15::text[], $16::bigint[], $17::bigint[], $18::timestamptz[], $19::timestamptz[]) as i(item_id, scans, bots, first, last)
      left join iu using (item_id)
    where q.id = i.item_id`;
