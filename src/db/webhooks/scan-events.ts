// scan.created and item.capped, taken from the scan log, never on the redirect path. The feed reads
// the scans past its 'webhooks' cursor up to the roll-ups' (so whether a scan was unique is known:
// the aggregator has filled scan_visitors.first_scan_id), a bounded slice at a time, and in ONE
// transaction writes the matching endpoints' messages and moves its cursor: each scan is told
// once. On PostgreSQL a transaction-scoped advisory lock keeps it to one process at a time.
import { sql } from 'kysely';
import { type ScanClass, type ScanEventData, eventBody } from '../../domain/webhooks/payloads.ts';
import { filterMatches } from '../../domain/webhooks/webhook-events.ts';
import { readBool, readTime } from '../codec.ts';
import type { Db } from '../database.ts';
import { cursorOf } from '../scans/scan-log.ts';
import { inTransaction } from '../transaction.ts';
import { type OutboxMessage, insertMessages, itemData, markNoticed, subscriptions, tagsOf } from './outbox.ts';

/**
 * Scans one scan.created message carries at most. A hot campaign's scans travel 1,000 to a
 * message: each message costs a claim, a signature, a connection and an attempt's record whatever
 * its size, and at 100 a message those were most of what webhooks cost the redirect on SQLite
 * (docs/performance.md). The feed's turn (every half second) is the batching window: when scans
 * are few, a message carries the scans of that half second.
 */
export const SCANS_PER_MESSAGE = 1000;
/** Scans read per transaction: one message's worth, some 5 ms of the thread that answers short links. */
export const SCAN_SLICE = 1000;
/** Names this feed among the database's advisory locks. */
export const FEED_LOCK_KEY = 7_420_128;

interface ScanRow {
  id: number;
  item_id: string;
  scanned_at: string | Date;
  is_bot: number | boolean;
  device: string;
  os: string | null;
  browser: string | null;
  country: string | null;
  referrer: string | null;
  outcome: string;
  rule_id: string | null;
  variant: number | null;
  destination: string | null;
  account_id: string;
  code: string;
  first_scan_id: number | string | null;
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
    const to = subs.length === 0 ? end : Math.min(end, from + slice);
    if (subs.length > 0) await tellScans(tx, subs, from, to, now);
    await tx.kysely.updateTable('log_cursors').set({ position: to }).where('name', '=', 'webhooks').execute();
    return to - from;
  });
}

async function tellScans(tx: Db, subs: Awaited<ReturnType<typeof subscriptions>>, from: number, to: number, now: Date): Promise<void> {
  const accounts = [...new Set(subs.map((s) => s.accountId))];
  const day =
    tx.codec.dialect === 'postgres' ? sql`to_char(s.scanned_at at time zone 'UTC', 'YYYY-MM-DD')` : sql`substr(s.scanned_at, 1, 10)`;
  const rows = await sql<ScanRow>`
    select s.id, s.item_id, s.scanned_at, s.is_bot, s.device, s.os, s.browser, s.country, s.referrer, s.outcome,
           s.rule_id, s.variant, i.account_id, i.code, v.first_scan_id,
           -- The log keeps the destination of codes with rules; a plain URL code sends to its URL.
           coalesce(s.destination, case when s.outcome = 'redirect' and i.content_type = 'url' then i.payload end) as destination
    from scans s
    join qr_items i on i.id = s.item_id
    left join scan_visitors v on v.item_id = s.item_id and v.visitor_hash = s.visitor_hash and v.day = ${day}
    where s.id > ${from} and s.id <= ${to} and i.account_id in (${sql.join(accounts)})
    order by s.id`.execute(tx.kysely);
  if (rows.rows.length === 0) return;
  const byAccount = new Map<string, ScanRow[]>();
  for (const r of rows.rows) {
    const list = byAccount.get(r.account_id);
    if (list) list.push(r);
    else byAccount.set(r.account_id, [r]);
  }
  const messages: OutboxMessage[] = [];
  const timestamp = now.toISOString();
  for (const [accountId, scans] of byAccount) {
    const mine = subs.filter((s) => s.accountId === accountId);
    const itemIds = [...new Set(scans.map((s) => s.item_id))];
    const tags = mine.some((s) => s.filter.tags.length > 0) ? await tagsOf(tx, accountId, itemIds) : new Map<string, string[]>();
    const scanSubs = mine.filter((s) => s.events.includes('scan.created'));
    // Batched: one message per endpoint for up to SCANS_PER_MESSAGE scans of this slice, each
    // scan's JSON made once whatever the number of endpoints, and one body per distinct batch:
    // endpoints that take the same scans (no filter, the usual case) share it (docs/webhooks.md).
    const jsons: (string | undefined)[] = [];
    const batches = new Map<string, number[]>();
    scans.forEach((scan, k) => {
      const item = { id: scan.item_id, tags: tags.get(scan.item_id) ?? [] };
      const bot = readBool(scan.is_bot);
      const at = readTime(scan.scanned_at);
      for (const sub of scanSubs) {
        if (bot && !sub.includeBots) continue;
        if (at < sub.createdAt) continue;
        if (!filterMatches(sub.filter, item)) continue;
        jsons[k] ??= JSON.stringify(scanData(scan, bot));
        const list = batches.get(sub.id);
        if (list) list.push(k);
        else batches.set(sub.id, [k]);
      }
    });
    const bodies = new Map<string, string>();
    for (const [endpointId, picked] of batches)
      for (let i = 0; i < picked.length; i += SCANS_PER_MESSAGE) {
        const part = picked.slice(i, i + SCANS_PER_MESSAGE);
        // Scan ids name the batch: the same ids, the same body.
        const shareKey = part.map((k) => scans[k]?.id).join(',');
        let body = bodies.get(shareKey);
        if (body === undefined) {
          body = scanBatchBody(
            timestamp,
            part.map((k) => jsons[k] ?? ''),
          );
          bodies.set(shareKey, body);
        }
        messages.push({ endpointId, accountId, type: 'scan.created', body, shareKey });
      }
    const cappedSubs = mine.filter((s) => s.events.includes('item.capped'));
    if (cappedSubs.length > 0) messages.push(...(await cappedNotices(tx, accountId, cappedSubs, scans, tags, now)));
  }
  await insertMessages(tx, messages, now);
}

/** `{type, timestamp, data: {scans: [...]}}` from scans already serialised. */
function scanBatchBody(timestamp: string, scans: readonly string[]): string {
  return `{"type":"scan.created","timestamp":${JSON.stringify(timestamp)},"data":{"scans":[${scans.join(',')}]}}`;
}

function scanData(scan: ScanRow, bot: boolean): ScanEventData {
  const klass: ScanClass = bot ? 'bot' : 'human';
  return {
    scanId: Number(scan.id),
    scannedAt: readTime(scan.scanned_at),
    item: { id: scan.item_id, code: scan.code },
    classification: klass,
    unique: scan.first_scan_id !== null && Number(scan.first_scan_id) === Number(scan.id),
    outcome: scan.outcome,
    device: scan.device,
    os: scan.os,
    browser: scan.browser,
    country: scan.country,
    referrerHost: scan.referrer,
    // '' in the log: the code had rules and none matched (logged-scan.ts).
    ruleId: scan.rule_id === '' ? null : scan.rule_id,
    variant: scan.variant === null ? null : Number(scan.variant),
    destination: scan.destination,
  };
}

/** item.capped for codes whose first refusal for their cap is in this slice (once per code, ever). */
async function cappedNotices(
  tx: Db,
  accountId: string,
  subs: Awaited<ReturnType<typeof subscriptions>>,
  scans: readonly ScanRow[],
  tags: Map<string, string[]>,
  now: Date,
): Promise<OutboxMessage[]> {
  const capped = [...new Set(scans.filter((s) => s.outcome === 'capped').map((s) => s.item_id))];
  if (capped.length === 0) return [];
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
