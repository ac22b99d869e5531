// scan.created and item.capped, taken from the scan log, never on the redirect path. The feed reads
// the scans past its 'webhooks' cursor up to the roll-ups' (so whether a scan was unique is known:
// the aggregator has filled scan_visitors.first_scan_id), a bounded slice at a time, and in ONE
// transaction writes the matching endpoints' messages and moves its cursor: each scan is told
// once. On PostgreSQL a transaction-scoped advisory lock keeps it to one process at a time.
//
// A scan.created message names its scans (scan-batches.ts) and its body is made when it is sent:
// the feed reads only which codes the slice's scans are of, a row per code, not the scans.
import { sql } from 'kysely';
import { eventBody } from '../../domain/webhooks/payloads.ts';
import { filterMatches } from '../../domain/webhooks/webhook-events.ts';
import { readBool, readTime } from '../codec.ts';
import type { Db } from '../database.ts';
import { cursorOf } from '../scans/scan-log.ts';
import { inTransaction } from '../transaction.ts';
import { type OutboxMessage, type Subscription, insertMessages, itemData, markNoticed, subscriptions, tagsOf } from './outbox.ts';
import type { ScanBatch } from './scan-batches.ts';

/**
 * Scans one scan.created message carries at most. A hot campaign's scans travel 1,000 to a
 * message: each message costs a claim, a signature, a connection and an attempt's record whatever
 * its size, and at 100 a message those were most of what webhooks cost the redirect on SQLite
 * (docs/performance.md). The feed's turn (every half second) is the batching window: when scans
 * are few, a message carries the scans of that half second.
 */
export const SCANS_PER_MESSAGE = 1000;
/** Scans per transaction: at most one message's worth, so a slice makes one message per endpoint. */
export const SCAN_SLICE = SCANS_PER_MESSAGE;
/** Names this feed among the database's advisory locks. */
export const FEED_LOCK_KEY = 7_420_128;

/** The slice's scans of one code and class (human or bot). */
interface CodeRow {
  account_id: string;
  item_id: string;
  is_bot: number | boolean;
  first_at: string | Date;
  last_at: string | Date;
  capped: number | string;
}

/** Moves the feed one slice; answers how many scans it passed (0: caught up, or another process holds it). */
export async function feedScanEvents(db: Db, slice = SCAN_SLICE, now = new Date()): Promise<number> {
  const end = await cursorOf(db, 'rollups');
  return inTransaction(db, async (tx) => {
    if (tx.codec.dialect === 'postgres') {
      const got = await sql<{ ok: boolean }>`select pg_try_advisory_xact_lock(${FEED_LOCK_KEY}, hashtext(current_schema())) as ok`.execute(
        tx.kysely,
      );
      if (got.rows[0]?.ok !== true) return 0;
    }
    const from = await cursorOf(tx, 'webhooks');
    if (from >= end) return 0;
    const subs = await subscriptions(tx, null, ['scan.created', 'item.capped']);
    // No endpoint listens: nothing to read, the cursor goes straight to the end.
    const to = subs.length === 0 ? end : Math.min(end, from + Math.min(slice, SCANS_PER_MESSAGE));
    if (subs.length > 0) await tellScans(tx, subs, from, to, now);
    await tx.kysely.updateTable('log_cursors').set({ position: to }).where('name', '=', 'webhooks').execute();
    return to - from;
  });
}

async function tellScans(tx: Db, subs: readonly Subscription[], from: number, to: number, now: Date): Promise<void> {
  const accounts = [...new Set(subs.map((s) => s.accountId))];
  // Grouped first, then joined to the codes: a join per scan (a hot code's thousand lookups of
  // the same row) was most of this read's cost on the thread that answers short links.
  const rows = await sql<CodeRow>`
    select i.account_id, g.item_id, g.is_bot, g.first_at, g.last_at, g.capped
    from (
      select s.item_id, s.is_bot, min(s.scanned_at) as first_at, max(s.scanned_at) as last_at,
             sum(case when s.outcome = 'capped' then 1 else 0 end) as capped
      from scans s
      where s.id > ${from} and s.id <= ${to}
      group by s.item_id, s.is_bot
    ) g
    join qr_items i on i.id = g.item_id
    where i.account_id in (${sql.join(accounts)})`.execute(tx.kysely);
  if (rows.rows.length === 0) return;
  const byAccount = new Map<string, CodeRow[]>();
  for (const r of rows.rows) {
    const list = byAccount.get(r.account_id);
    if (list) list.push(r);
    else byAccount.set(r.account_id, [r]);
  }
  const messages: OutboxMessage[] = [];
  const timestamp = now.toISOString();
  for (const [accountId, codes] of byAccount) {
    const mine = subs.filter((s) => s.accountId === accountId);
    const itemIds = [...new Set(codes.map((c) => c.item_id))];
    const tags = mine.some((s) => s.filter.tags.length > 0) ? await tagsOf(tx, accountId, itemIds) : new Map<string, string[]>();
    const slice = codes.map((c) => ({
      item: { id: c.item_id, tags: tags.get(c.item_id) ?? [] },
      bot: readBool(c.is_bot),
      first: readTime(c.first_at),
      last: readTime(c.last_at),
    }));
    // ISO times: the earliest sorts first.
    const first = slice.map((c) => c.first).sort()[0] ?? timestamp;
    for (const sub of mine) {
      if (!sub.events.includes('scan.created')) continue;
      const eligible = slice.filter((c) => !c.bot || sub.includeBots);
      const taken = eligible.filter((c) => filterMatches(sub.filter, c.item));
      if (!taken.some((c) => c.last >= sub.createdAt)) continue;
      // What the slice does not tell apart is left out, so endpoints that take the same scans
      // (no filter, the usual case) share one batch and one body (docs/webhooks.md).
      const batch: ScanBatch = {
        accountId,
        from,
        to,
        timestamp,
        includeBots: sub.includeBots && slice.some((c) => c.bot),
        tags: [],
        itemIds: [],
        since: sub.createdAt > first ? sub.createdAt : null,
      };
      if (taken.length < eligible.length) {
        batch.tags = sub.filter.tags;
        batch.itemIds = sub.filter.itemIds;
      }
      const shareKey = JSON.stringify(batch);
      messages.push({ endpointId: sub.id, accountId, type: 'scan.created', body: '', scans: batch, shareKey });
    }
    const cappedSubs = mine.filter((s) => s.events.includes('item.capped'));
    const capped = [...new Set(codes.filter((c) => Number(c.capped) > 0).map((c) => c.item_id))];
    if (cappedSubs.length > 0 && capped.length > 0) messages.push(...(await cappedNotices(tx, accountId, cappedSubs, capped, tags, now)));
  }
  await insertMessages(tx, messages, now);
}

/** item.capped for codes whose first refusal for their cap is in this slice (once per code, ever). */
async function cappedNotices(
  tx: Db,
  accountId: string,
  subs: readonly Subscription[],
  capped: readonly string[],
  tags: Map<string, string[]>,
  now: Date,
): Promise<OutboxMessage[]> {
  const told = await tx.kysely
    .selectFrom('webhook_notices')
    .select('item_id')
    .where('kind', '=', 'capped')
    .where('item_id', 'in', capped)
    .execute();
  const seen = new Set(told.map((r) => r.item_id));
  const fresh = capped.filter((id) => !seen.has(id));
  if (fresh.length === 0) return [];
  await markNoticed(tx, 'capped', fresh, now);
  const items = await itemData(tx, accountId, fresh);
  const out: OutboxMessage[] = [];
  for (const item of items)
    for (const sub of subs)
      if (filterMatches(sub.filter, { id: item.id, tags: tags.get(item.id) ?? item.tags }))
        out.push({ endpointId: sub.id, accountId, type: 'item.capped', body: eventBody('item.capped', now.toISOString(), item) });
  return out;
}

/**
 * item.expired for codes whose expiry passed, to the endpoints that existed when it did; each code
 * is told once (a notice), in the transaction that writes its messages.
 */
export async function tellExpiredItems(db: Db, now = new Date(), limit = 500): Promise<number> {
  const subs = await subscriptions(db, null, ['item.expired']);
  if (subs.length === 0) return 0;
  const nowAt = db.codec.time(now.toISOString());
  return inTransaction(db, async (tx) => {
    if (tx.codec.dialect === 'postgres') {
      const got = await sql<{
        ok: boolean;
      }>`select pg_try_advisory_xact_lock(${FEED_LOCK_KEY + 1}, hashtext(current_schema())) as ok`.execute(tx.kysely);
      if (got.rows[0]?.ok !== true) return 0;
    }
    const accounts = [...new Set(subs.map((s) => s.accountId))];
    const rows = await tx.kysely
      .selectFrom('qr_items as i')
      .select(['i.id', 'i.account_id', 'i.expires_at'])
      .where('i.account_id', 'in', accounts)
      .where('i.expires_at', 'is not', null)
      .where('i.expires_at', '<=', nowAt)
      .where('i.deleted_at', 'is', null)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb.selectFrom('webhook_notices as n').select('n.item_id').whereRef('n.item_id', '=', 'i.id').where('n.kind', '=', 'expired'),
          ),
        ),
      )
      .limit(limit)
      .execute();
    if (rows.length === 0) return 0;
    await markNoticed(
      tx,
      'expired',
      rows.map((r) => r.id),
      now,
    );
    const createdAt = new Map(subs.map((s) => [s.id, s.createdAt]));
    const messages: OutboxMessage[] = [];
    for (const accountId of accounts) {
      const mine = rows.filter((r) => r.account_id === accountId);
      if (mine.length === 0) continue;
      const items = await itemData(
        tx,
        accountId,
        mine.map((r) => r.id),
      );
      for (const item of items)
        for (const sub of subs)
          if (
            sub.accountId === accountId &&
            item.expiresAt !== null &&
            item.expiresAt >= (createdAt.get(sub.id) ?? '') &&
            filterMatches(sub.filter, item)
          )
            messages.push({
              endpointId: sub.id,
              accountId,
              type: 'item.expired',
              body: eventBody('item.expired', now.toISOString(), item),
            });
    }
    await insertMessages(tx, messages, now);
    return rows.length;
  });
}
