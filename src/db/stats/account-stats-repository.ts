// Reads for the account overview. Like the item stats, every query is bounded by the
// range (quarter hours and breakdown rows of the range) or by the account's codes (one
// probe each into their running totals, for as few of them as the top list needs); none
// reads raw scans.
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { AccountDayRow, AccountStatsSource, TopCode } from '../../domain/stats/account-stats.ts';
import type { DimRow } from '../../domain/stats/build-stats.ts';
import { BUCKETS_PER_DAY } from '../../domain/stats/scan-buckets.ts';
import type { OffsetSegment } from '../../domain/stats/time-zones.ts';
import type { BucketSpan } from '../../domain/stats/utc-cover.ts';
import { readBool } from '../codec.ts';
import type { Db } from '../database.ts';
import type { Database } from '../schema.ts';

/** The walk for the top codes reads this many codes first, then twice as many a page, up to the most. */
const TOP_WALK_FIRST_PAGE = 100;
const TOP_WALK_MAX_PAGE = 1_600;

/** Where the walk stopped: codes after it have fewer scans, or as many and a greater id. */
interface WalkCursor {
  total: number;
  id: string;
}

export class AccountStatsRepository implements AccountStatsSource {
  constructor(private readonly db: Db) {}

  /** Kept with the codes (migration 0011): counting them read the whole account. */
  async liveCodes(accountId: string): Promise<number> {
    const row = await this.db.kysely.selectFrom('accounts').select('live_codes').where('id', '=', accountId).executeTakeFirst();
    return Number(row?.live_codes ?? 0);
  }

  async accountLocalDays(accountId: string, segments: readonly OffsetSegment[]): Promise<AccountDayRow[]> {
    const parts = await Promise.all(
      segments.map((seg) =>
        this.db.kysely
          .selectFrom('account_buckets')
          .select([
            // As for items: integer literals (SQLite binds JS numbers as REAL); bucket + offset > 0.
            sql<number>`(bucket + ${sql.lit(integer(seg.offsetBuckets))}) / ${sql.lit(BUCKETS_PER_DAY)}`.as('day'),
            (eb) => eb.fn.sum<number>('scans').as('scans'),
            (eb) => eb.fn.sum<number>('unique_scans').as('unique_scans'),
            (eb) => eb.fn.sum<number>('bot_scans').as('bot_scans'),
          ])
          .where('account_id', '=', accountId)
          .where('bucket', '>=', seg.fromBucket)
          .where('bucket', '<', seg.toBucket)
          .groupBy(sql`1`)
          .execute(),
      ),
    );
    return parts
      .flat()
      .map((r) => ({ day: Number(r.day), scans: Number(r.scans), uniqueScans: Number(r.unique_scans), botScans: Number(r.bot_scans) }));
  }

  async accountDims(accountId: string, fromDay: string, toDay: string): Promise<DimRow[]> {
    const rows = await this.db.kysely
      .selectFrom('account_dims_daily')
      .select(['dim', 'value', (eb) => eb.fn.sum<number>('scans').as('scans')])
      .where('account_id', '=', accountId)
      .where('day', '>=', fromDay)
      .where('day', '<=', toDay)
      .groupBy(['dim', 'value'])
      .execute();
    return rows.map((r) => ({ dim: r.dim, value: r.value, scans: Number(r.scans) }));
  }

  /** The account's human scans by dimension and value in the given quarter hours (at most two part-days). */
  async accountDimsInSpans(accountId: string, spans: readonly BucketSpan[]): Promise<DimRow[]> {
    if (spans.length === 0) return [];
    const rows = await this.db.kysely
      .selectFrom('account_dims_quarter')
      .select(['dim', 'value', (eb) => eb.fn.sum<number>('scans').as('scans')])
      .where('account_id', '=', accountId)
      .where((eb) => eb.or(spans.map((s) => eb.and([eb('bucket', '>=', s.fromBucket), eb('bucket', '<', s.toBucket)]))))
      .groupBy(['dim', 'value'])
      .execute();
    return rows.map((r) => ({ dim: r.dim, value: r.value, scans: Number(r.scans) }));
  }

  /**
   * A code's scans since `fromDay` are its total less its last running total before
   * `fromDay` (one index probe). No code can have more scans in the range than in all, so
   * the account's codes are walked from the most scanned down (item_scan_totals' index), a
   * page at a time, and the walk stops once the last of the top list has more scans in the
   * range than the next code has in all: usually after a page or two, at worst after every
   * code scanned at all, never after more. One snapshot for the whole walk. The quarter hours
   * of `fromDay` before the range (`head`) are taken off from the code's quarter-hour
   * roll-up: one more short index range per code, and still never more than its total.
   */
  async topCodes(accountId: string, fromDay: string, limit: number, head: BucketSpan | null = null): Promise<TopCode[]> {
    // Already inside one (a read worker's snapshot, src/read-pool/): the walk shares it.
    if (this.db.kysely.isTransaction) return this.walkAndName(this.db.kysely, accountId, fromDay, limit, head);
    // A SQLite transaction is a snapshot already; PostgreSQL's default takes one per statement.
    const transaction = this.db.kysely.transaction();
    return (this.db.codec.dialect === 'postgres' ? transaction.setIsolationLevel('repeatable read') : transaction).execute((trx) =>
      this.walkAndName(trx, accountId, fromDay, limit, head),
    );
  }

  private async walkAndName(
    trx: Kysely<Database>,
    accountId: string,
    fromDay: string,
    limit: number,
    head: BucketSpan | null,
  ): Promise<TopCode[]> {
    // Deleting a code drops its total, but a scan batch committed just after can write it
    // again: such a code is left out and the walk done again without it.
    const skipped = new Set<string>();
    for (;;) {
      const best = await walkTop(trx, accountId, fromDay, head, limit, skipped);
      if (best.length === 0) return [];
      // Names and unique scans only for the few codes shown.
      const shown = await trx
        .selectFrom('qr_items as q')
        .select([
          'q.id',
          'q.code',
          'q.title',
          'q.active',
          sql<number>`q.unique_scan_count - ${before('q.id', fromDay, 'unique_scans')} - ${inHead('q.id', head, 'unique_scans')}`.as(
            'unique_scans',
          ),
        ])
        .where(
          'q.id',
          'in',
          best.map((b) => b.id),
        )
        .where('q.deleted_at', 'is', null)
        .execute();
      const byId = new Map(shown.map((r) => [r.id, r]));
      const gone = best.filter((b) => !byId.has(b.id));
      if (gone.length > 0) {
        for (const b of gone) skipped.add(b.id);
        continue;
      }
      return best.map((t) => {
        const r = byId.get(t.id)!;
        return {
          id: r.id,
          code: r.code,
          title: r.title,
          active: readBool(r.active),
          scans: t.scans,
          uniqueScans: Number(r.unique_scans),
        };
      });
    }
  }
}

/** A code's running total of `column` at the end of the last day before `fromDay` it was scanned on (0 if none). */
function before(itemId: 'q.id' | 't.item_id', fromDay: string, column: 'scans' | 'unique_scans'): RawBuilder<number> {
  return sql<number>`coalesce((select r.${sql.ref(column)} from item_running_totals r
      where r.item_id = ${sql.ref(itemId)} and r.day < ${fromDay} order by r.day desc limit 1), 0)`;
}

/** A code's `column` in the quarter hours of `head` (0 without a head). */
function inHead(itemId: 'q.id' | 't.item_id', head: BucketSpan | null, column: 'scans' | 'unique_scans'): RawBuilder<number> {
  if (head === null) return sql<number>`0`;
  return sql<number>`coalesce((select sum(b.${sql.ref(column)}) from scan_buckets b
      where b.item_id = ${sql.ref(itemId)} and b.bucket >= ${sql.lit(integer(head.fromBucket))} and b.bucket < ${sql.lit(integer(head.toBucket))}), 0)`;
}

/** The walk (see topCodes): the `limit` codes with the most scans since `fromDay` (less `head`), most first, ties by id. */
async function walkTop(
  trx: Kysely<Database>,
  accountId: string,
  fromDay: string,
  head: BucketSpan | null,
  limit: number,
  skipped: ReadonlySet<string>,
) {
  const best: { id: string; scans: number }[] = [];
  let after: WalkCursor | null = null;
  for (let page = TOP_WALK_FIRST_PAGE; ; page = Math.min(page * 2, TOP_WALK_MAX_PAGE)) {
    const rows = await walkPage(trx, accountId, fromDay, head, after, page);
    for (const r of rows) if (r.scans > 0 && !skipped.has(r.id)) best.push({ id: r.id, scans: r.scans });
    best.sort((a, b) => b.scans - a.scans || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    best.length = Math.min(best.length, limit);
    const last = rows.at(-1);
    if (!last || rows.length < page) return best;
    after = { total: last.total, id: last.id };
    // Every code further down has at most `after.total` scans in all, so in the range too.
    if (after.total <= 0 || (best.length === limit && best[limit - 1]!.scans > after.total)) return best;
  }
}

/** One page of the walk: the account's next codes by scans in all, each with its scans since `fromDay`. */
async function walkPage(
  trx: Kysely<Database>,
  accountId: string,
  fromDay: string,
  head: BucketSpan | null,
  after: WalkCursor | null,
  page: number,
) {
  const rows = await trx
    .selectFrom('item_scan_totals as t')
    .select([
      't.item_id as id',
      't.scans as total',
      sql<number>`t.scans - ${before('t.item_id', fromDay, 'scans')} - ${inHead('t.item_id', head, 'scans')}`.as('scans'),
    ])
    .where('t.account_id', '=', accountId)
    // scans <= total bounds the index scan; the ties at total already walked are filtered.
    .$if(after !== null, (qb) =>
      qb.where('t.scans', '<=', after!.total).where((eb) => eb.or([eb('t.scans', '<', after!.total), eb('t.item_id', '>', after!.id)])),
    )
    .orderBy('t.scans', 'desc')
    .orderBy('t.item_id')
    .limit(integer(page))
    .execute();
  return rows.map((r) => ({ id: r.id, total: Number(r.total), scans: Number(r.scans) }));
}

function integer(n: number): number {
  if (!Number.isSafeInteger(n)) throw new Error(`expected an integer, got ${n}`);
  return n;
}
