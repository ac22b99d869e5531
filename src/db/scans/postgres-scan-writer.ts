// Scan recording on PostgreSQL: group commit as on SQLite, but a batch is ONE
// statement (one round trip): data-modifying CTEs insert the raw scans, claim the
// day's new visitors, and add the summed deltas to the roll-ups and item counters.
// Counter rows are only ever incremented in place (x = x + n), so concurrent
// processes never lose an increment; rows are touched in key order to keep lock
// order stable, and a deadlock victim is simply retried.
import type pg from 'pg';
import { type ScanEvent, firstVisitsInBatch, scanDay, sumBatch, variantKey } from '../../domain/scans/scan-batch.ts';
import { bucketOf } from '../../domain/stats/scan-buckets.ts';
import { booleanArray, integerArray, textArray } from '../postgres/pg-array-literal.ts';
import type { ScanWriteObserver, ScanWriter } from './scan-writer.ts';

interface Pending {
  scan: ScanEvent;
  resolve: () => void;
  reject: (err: unknown) => void;
}

const MAX_BATCH = 512;
// One batch at a time: while it commits the next one grows, so a batch's fixed cost is paid less
// often; two in flight measured worse (docs/scaling.md).
const MAX_IN_FLIGHT = 1;
const RETRIES = 3;

export class PostgresScanWriter implements ScanWriter {
  private queue: Pending[] = [];
  private inFlight = 0;
  private scheduled = false;
  private readonly idle: (() => void)[] = [];

  constructor(
    private readonly pool: pg.Pool,
    private readonly observer: ScanWriteObserver | null = null,
  ) {}

  record(scan: ScanEvent): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ scan, resolve, reject });
      // Sent once this turn of the event loop is over, so the scans of every request read
      // in the same turn share one batch instead of the first going out alone.
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  /** While a batch is in flight, new scans queue up and go together in the next one. */
  private pump(): void {
    while (this.queue.length > 0 && this.inFlight < MAX_IN_FLIGHT) {
      const batch = this.queue.splice(0, MAX_BATCH);
      const scans = batch.map((p) => p.scan);
      const started = this.observer === null ? 0 : performance.now();
      this.inFlight++;
      this.write(scans)
        .then(
          () => {
            this.observer?.written(scans, (performance.now() - started) / 1000);
            for (const p of batch) p.resolve();
          },
          (err: unknown) => {
            this.observer?.failed(scans, (performance.now() - started) / 1000);
            for (const p of batch) p.reject(err);
          },
        )
        .finally(() => {
          this.inFlight--;
          this.pump();
          if (this.inFlight === 0 && this.queue.length === 0) for (const f of this.idle.splice(0)) f();
        });
    }
  }

  private async write(scans: ScanEvent[]): Promise<void> {
    const values = batchParameters(scans);
    for (let attempt = 1; ; attempt++) {
      try {
        // A named statement is planned once per connection: planning this CTE costs more than running it.
        await this.pool.query({ name: 'qrtrack_record_scans', text: RECORD_BATCH, values });
        return;
      } catch (err) {
        const code = (err as { code?: string }).code;
        if ((code !== '40P01' && code !== '40001') || attempt >= RETRIES) throw err;
      }
    }
  }

  async drain(): Promise<void> {
    if (this.inFlight === 0 && this.queue.length === 0) return;
    await new Promise<void>((resolve) => this.idle.push(resolve));
  }
}

/**
 * The statement's parameters, as parallel array literals (one per column): the raw scans,
 * the batch's first visits (the only ones that can be new visitors), and the counter
 * deltas summed here, so the database does no grouping. Each set is sorted by its key,
 * so concurrent batches lock counter rows in the same order.
 */
export function batchParameters(batch: readonly ScanEvent[]): string[] {
  const scans = [...batch].sort((a, b) => compare(a.itemId, b.itemId) || compare(a.scannedAt, b.scannedAt));
  const firsts = firstVisitsInBatch(scans);
  // Unique counts are the database's to decide (scan_visitors), so none are summed here.
  const deltas = sumBatch(scans, []);
  const visits = scans
    .filter((_, i) => firsts[i])
    .map((s) => ({
      itemId: s.itemId,
      accountId: s.accountId,
      day: scanDay(s),
      hash: s.visitorHash,
      bucket: bucketOf(s.ms ?? Date.parse(s.scannedAt)),
      variant: variantKey(s.ruleId, s.variant),
    }))
    .sort((a, b) => compare(a.itemId, b.itemId) || compare(a.day, b.day) || compare(a.hash, b.hash));
  const buckets = deltas.buckets.sort((a, b) => compare(a.itemId, b.itemId) || a.bucket - b.bucket);
  const dims = deltas.dims.sort(
    (a, b) => compare(a.itemId, b.itemId) || compare(a.day, b.day) || compare(a.dim, b.dim) || compare(a.value, b.value),
  );
  const items = deltas.items.sort((a, b) => compare(a.itemId, b.itemId));
  const accountBuckets = deltas.accountBuckets.sort((a, b) => compare(a.accountId, b.accountId) || a.bucket - b.bucket);
  const accountDims = deltas.accountDims.sort(
    (a, b) => compare(a.accountId, b.accountId) || compare(a.day, b.day) || compare(a.dim, b.dim) || compare(a.value, b.value),
  );
  const quarterDims = deltas.quarterDims.sort(
    (a, b) => compare(a.itemId, b.itemId) || a.bucket - b.bucket || compare(a.dim, b.dim) || compare(a.value, b.value),
  );
  const accountQuarterDims = deltas.accountQuarterDims.sort(
    (a, b) => compare(a.accountId, b.accountId) || a.bucket - b.bucket || compare(a.dim, b.dim) || compare(a.value, b.value),
  );
  const itemDays = deltas.itemDays.sort((a, b) => compare(a.itemId, b.itemId) || compare(a.day, b.day));
  const text = <T>(rows: readonly T[], f: (row: T) => string | null) => textArray(rows.map(f));
  const int = <T>(rows: readonly T[], f: (row: T) => number) => integerArray(rows.map(f));
  return [
    text(scans, (s) => s.itemId),
    text(scans, (s) => s.scannedAt),
    booleanArray(scans.map((s) => s.isBot)),
    text(scans, (s) => s.device),
    text(scans, (s) => s.os),
    text(scans, (s) => s.browser),
    text(scans, (s) => s.country),
    text(scans, (s) => s.referrer),
    text(scans, (s) => s.visitorHash),
    text(visits, (v) => v.itemId),
    text(visits, (v) => v.day),
    text(visits, (v) => v.hash),
    int(visits, (v) => v.bucket),
    text(buckets, (b) => b.itemId),
    int(buckets, (b) => b.bucket),
    int(buckets, (b) => b.scans),
    int(buckets, (b) => b.botScans),
    text(dims, (d) => d.itemId),
    text(dims, (d) => d.day),
    text(dims, (d) => d.dim),
    text(dims, (d) => d.value),
    int(dims, (d) => d.scans),
    text(items, (i) => i.itemId),
    int(items, (i) => i.scans),
    int(items, (i) => i.botScans),
    text(items, (i) => i.first),
    text(items, (i) => i.last),
    text(visits, (v) => v.accountId),
    text(accountBuckets, (b) => b.accountId),
    int(accountBuckets, (b) => b.bucket),
    int(accountBuckets, (b) => b.scans),
    int(accountBuckets, (b) => b.botScans),
    text(accountDims, (d) => d.accountId),
    text(accountDims, (d) => d.day),
    text(accountDims, (d) => d.dim),
    text(accountDims, (d) => d.value),
    int(accountDims, (d) => d.scans),
    text(itemDays, (d) => d.itemId),
    text(itemDays, (d) => d.day),
    int(itemDays, (d) => d.scans),
    text(items, (i) => i.accountId),
    text(quarterDims, (d) => d.itemId),
    int(quarterDims, (d) => d.bucket),
    text(quarterDims, (d) => d.dim),
    text(quarterDims, (d) => d.value),
    int(quarterDims, (d) => d.scans),
    text(accountQuarterDims, (d) => d.accountId),
    int(accountQuarterDims, (d) => d.bucket),
    text(accountQuarterDims, (d) => d.dim),
    text(accountQuarterDims, (d) => d.value),
    int(accountQuarterDims, (d) => d.scans),
    text(scans, (s) => s.outcome ?? 'redirect'),
    text(scans, (s) => s.ruleId ?? null),
    text(scans, (s) => (s.variant === null || s.variant === undefined ? null : String(s.variant))),
    text(scans, (s) => s.destination ?? null),
    text(visits, (v) => v.variant),
  ];
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
// adds them to it in the same statement, unseen), or, if another process made that
// row meanwhile, adds to it. Both read the statement's snapshot, so neither sees the other's
// rows; only batches of one code on different UTC days written at the same instant by two
// processes (around midnight) can miss each other (docs/decisions/account-stats.md).
const RECORD_BATCH = `
    with ins as (
      insert into scans (item_id, scanned_at, is_bot, device, os, browser, country, referrer, visitor_hash, outcome, rule_id, variant,
        destination)
      select * from unnest($1::text[], $2::timestamptz[], $3::boolean[], $4::text[], $5::text[], $6::text[], $7::text[],
        $8::text[], $9::text[], $52::text[], $53::text[], $54::int[], $55::text[])
    ),
    firsts as (
      select * from unnest($10::text[], $11::text[], $12::text[], $13::bigint[], $28::text[], $56::text[])
        as f(item_id, day, visitor_hash, bucket, account_id, variant)
    ),
    nv as (
      insert into scan_visitors (item_id, day, visitor_hash)
      select item_id, day, visitor_hash from firsts order by 1, 2, 3
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
      from unnest($14::text[], $15::bigint[], $16::bigint[], $17::bigint[]) as b(item_id, bucket, scans, bots)
        left join uq using (item_id, bucket)`,
    )}),
    ud as (${addToRollup(
      'scan_dims_daily',
      ['item_id', 'day', 'dim', 'value'],
      ['scans'],
      `
      select * from unnest($18::text[], $19::text[], $20::text[], $21::text[], $22::bigint[]) as d(item_id, day, dim, value, n)`,
    )}),
    uqd as (${addToRollup(
      'scan_dims_quarter',
      ['item_id', 'bucket', 'dim', 'value'],
      ['scans'],
      `
      select * from unnest($42::text[], $43::bigint[], $44::text[], $45::text[], $46::bigint[]) as d(item_id, bucket, dim, value, n)`,
    )}),
    ua as (${addToRollup(
      'account_buckets',
      ['account_id', 'bucket'],
      BUCKET_COUNTERS,
      `
      select a.account_id, a.bucket, a.scans, coalesce(u.n, 0), a.bots
      from unnest($29::text[], $30::bigint[], $31::bigint[], $32::bigint[]) as a(account_id, bucket, scans, bots)
        left join (select account_id, bucket, sum(n) as n from uq group by 1, 2) u using (account_id, bucket)`,
    )}),
    uad as (${addToRollup(
      'account_dims_daily',
      ['account_id', 'day', 'dim', 'value'],
      ['scans'],
      `
      select * from unnest($33::text[], $34::text[], $35::text[], $36::text[], $37::bigint[]) as d(account_id, day, dim, value, n)`,
    )}),
    uaqd as (${addToRollup(
      'account_dims_quarter',
      ['account_id', 'bucket', 'dim', 'value'],
      ['scans'],
      `
      select * from unnest($47::text[], $48::bigint[], $49::text[], $50::text[], $51::bigint[]) as d(account_id, bucket, dim, value, n)`,
    )}),
    bd as (
      select d.item_id, d.day, d.n, coalesce(u.n, 0) as u
      from unnest($38::text[], $39::text[], $40::bigint[]) as d(item_id, day, n)
        left join (select item_id, day, sum(n) as n from uq group by 1, 2) u using (item_id, day)
    ),
    rt_add as (
      update item_running_totals r set scans = r.scans + s.n, unique_scans = r.unique_scans + s.u
      from (
        select r2.item_id, r2.day, sum(bd.n) as n, sum(bd.u) as u
        from bd join item_running_totals r2 on r2.item_id = bd.item_id and r2.day >= bd.day
        group by 1, 2
      ) s
      where r.item_id = s.item_id and r.day = s.day
    ),
    rt_new as (
      insert into item_running_totals (item_id, day, scans, unique_scans)
      select bd.item_id, bd.day,
        coalesce(p.scans, 0) + (select sum(b2.n) from bd b2 where b2.item_id = bd.item_id and b2.day <= bd.day),
        coalesce(p.unique_scans, 0) + (select sum(b2.u) from bd b2 where b2.item_id = bd.item_id and b2.day <= bd.day)
      from bd left join lateral (
        select r.day, r.scans, r.unique_scans from item_running_totals r where r.item_id = bd.item_id and r.day < bd.day order by r.day desc limit 1
      ) p on true
      order by 1, 2
      -- Another process made the row since this statement's snapshot: add this batch to it.
      on conflict (item_id, day) do update set
        scans = item_running_totals.scans + (select sum(b2.n) from bd b2 where b2.item_id = excluded.item_id and b2.day <= excluded.day),
        unique_scans = item_running_totals.unique_scans + (select sum(b2.u) from bd b2 where b2.item_id = excluded.item_id and b2.day <= excluded.day)
    ),
    ut as (
      insert into item_scan_totals (item_id, account_id, scans)
      select item_id, account_id, scans from unnest($23::text[], $41::text[], $24::bigint[]) as i(item_id, account_id, scans)
      where scans > 0
      order by 1
      on conflict (item_id) do update set scans = item_scan_totals.scans + excluded.scans
    ),
    iu as (select item_id, sum(n) as n from uq group by 1)
    update qr_items q set scan_count = q.scan_count + i.scans, unique_scan_count = q.unique_scan_count + coalesce(iu.n, 0),
      bot_scan_count = q.bot_scan_count + i.bots, first_scan_at = coalesce(q.first_scan_at, i.first),
      last_scan_at = greatest(q.last_scan_at, i.last)
    from unnest($23::text[], $24::bigint[], $25::bigint[], $26::timestamptz[], $27::timestamptz[]) as i(item_id, scans, bots, first, last)
      left join iu using (item_id)
    where q.id = i.item_id`;
