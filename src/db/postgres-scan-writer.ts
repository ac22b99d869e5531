// Scan recording on PostgreSQL: group commit as on SQLite, but a batch is ONE
// statement (one round trip): data-modifying CTEs insert the raw scans, claim the
// day's new visitors, and add the summed deltas to the roll-ups and item counters.
// Counter rows are only ever incremented in place (x = x + n), so concurrent
// processes never lose an increment; rows are touched in key order to keep lock
// order stable, and a deadlock victim is simply retried.
import type pg from 'pg';
import type { ScanEvent } from '../domain/scans/scan-batch.ts';
import type { ScanWriter } from './scan-writer.ts';

interface Pending {
  scan: ScanEvent;
  resolve: () => void;
  reject: (err: unknown) => void;
}

const MAX_BATCH = 512;
const MAX_IN_FLIGHT = 2;
const RETRIES = 3;

export class PostgresScanWriter implements ScanWriter {
  private queue: Pending[] = [];
  private inFlight = 0;
  private readonly idle: (() => void)[] = [];

  constructor(private readonly pool: pg.Pool) {}

  record(scan: ScanEvent): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ scan, resolve, reject });
      this.pump();
    });
  }

  /** While a batch is in flight, new scans queue up and go together in the next one. */
  private pump(): void {
    while (this.queue.length > 0 && this.inFlight < MAX_IN_FLIGHT) {
      const batch = this.queue.splice(0, MAX_BATCH);
      this.inFlight++;
      this.write(batch.map((p) => p.scan))
        .then(
          () => batch.forEach((p) => p.resolve()),
          (err: unknown) => batch.forEach((p) => p.reject(err)),
        )
        .finally(() => {
          this.inFlight--;
          this.pump();
          if (this.inFlight === 0 && this.queue.length === 0) this.idle.splice(0).forEach((f) => f());
        });
    }
  }

  private async write(scans: ScanEvent[]): Promise<void> {
    const rows = [...scans].sort((a, b) => (a.itemId < b.itemId ? -1 : a.itemId > b.itemId ? 1 : a.scannedAt.localeCompare(b.scannedAt)));
    const batch = JSON.stringify(
      rows.map((s) => ({
        item_id: s.itemId, scanned_at: s.scannedAt, is_bot: s.isBot, device: s.device, os: s.os, browser: s.browser,
        country: s.country, referrer: s.referrer, visitor_hash: s.visitorHash,
      })),
    );
    for (let attempt = 1; ; attempt++) {
      try {
        // A named statement is planned once per connection: planning this CTE costs more than running it.
        await this.pool.query({ name: 'qrtrack_record_scans', text: RECORD_BATCH, values: [batch] });
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

const RECORD_BATCH = `
    with s as (
      select x.*, floor(extract(epoch from x.scanned_at) / 900)::bigint as bucket,
             to_char(x.scanned_at at time zone 'UTC', 'YYYY-MM-DD') as day
      from jsonb_to_recordset($1::jsonb) as x(item_id text, scanned_at timestamptz, is_bot boolean, device text,
           os text, browser text, country text, referrer text, visitor_hash text)
    ),
    ins as (
      insert into scans (item_id, scanned_at, is_bot, device, os, browser, country, referrer, visitor_hash)
      select item_id, scanned_at, is_bot, device, os, browser, country, referrer, visitor_hash from s
    ),
    firsts as (
      select distinct on (item_id, day, visitor_hash) item_id, day, visitor_hash, bucket
      from s where not is_bot order by item_id, day, visitor_hash, scanned_at
    ),
    nv as (
      insert into scan_visitors (item_id, day, visitor_hash)
      select item_id, day, visitor_hash from firsts order by 1, 2, 3
      on conflict do nothing returning item_id, day, visitor_hash
    ),
    uq as (
      select f.item_id, f.bucket, count(*) as n from firsts f join nv using (item_id, day, visitor_hash) group by 1, 2
    ),
    bk as (
      select item_id, bucket, count(*) filter (where not is_bot) as scans, count(*) filter (where is_bot) as bots from s group by 1, 2
    ),
    ub as (
      insert into scan_buckets (item_id, bucket, scans, unique_scans, bot_scans)
      select bk.item_id, bk.bucket, bk.scans, coalesce(uq.n, 0), bk.bots from bk left join uq using (item_id, bucket) order by 1, 2
      on conflict (item_id, bucket) do update set scans = scan_buckets.scans + excluded.scans,
        unique_scans = scan_buckets.unique_scans + excluded.unique_scans, bot_scans = scan_buckets.bot_scans + excluded.bot_scans
    ),
    dm as (
      select item_id, day, v.dim, v.value, count(*) as n
      from s cross join lateral (values ('device', device), ('os', coalesce(os, 'unknown')), ('browser', coalesce(browser, 'unknown')),
        ('country', coalesce(country, 'unknown')), ('referrer', coalesce(referrer, 'direct'))) as v(dim, value)
      where not is_bot group by 1, 2, 3, 4
    ),
    ud as (
      insert into scan_dims_daily (item_id, day, dim, value, scans)
      select item_id, day, dim, value, n from dm order by 1, 2, 3, 4
      on conflict (item_id, day, dim, value) do update set scans = scan_dims_daily.scans + excluded.scans
    ),
    it as (
      select item_id, count(*) filter (where not is_bot) as scans, count(*) filter (where is_bot) as bots,
             min(scanned_at) filter (where not is_bot) as first, max(scanned_at) filter (where not is_bot) as last
      from s group by 1
    ),
    iu as (select item_id, sum(n) as n from uq group by 1)
    update qr_items q set scan_count = q.scan_count + it.scans, unique_scan_count = q.unique_scan_count + coalesce(iu.n, 0),
      bot_scan_count = q.bot_scan_count + it.bots, first_scan_at = coalesce(q.first_scan_at, it.first),
      last_scan_at = greatest(q.last_scan_at, it.last)
    from it left join iu using (item_id)
    where q.id = it.item_id`;
