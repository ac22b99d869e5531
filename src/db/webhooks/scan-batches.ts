// A scan.created message's scans, named rather than held: an account's scans in an id range of
// the log, as one endpoint's filter picks them. The feed (scan-events.ts) writes the batch; the
// body is made from the log when the message is sent (in a read worker on a SQLite file), so
// the thread that answers short links neither reads the scans nor writes their JSON.
//
// Made again, a batch makes the same body: the log is append-only and the feed passes only scans
// the roll-ups have applied (so whether a scan was unique is known). Only forgetting takes scans
// out (DELETE /v1/qr/{id}/scans, retention): a batch made after that leaves them out, and one
// left with no scan is not sent (docs/webhooks.md).
import { sql } from 'kysely';
import type { ScanClass, ScanEventData } from '../../domain/webhooks/payloads.ts';
import { filterMatches } from '../../domain/webhooks/webhook-events.ts';
import { readBool, readTime } from '../codec.ts';
import type { Db } from '../database.ts';
import { tagsOf } from './outbox.ts';

export interface ScanBatch {
  accountId: string;
  /** The log's ids, (from, to]. */
  from: number;
  to: number;
  /** The body's `timestamp`: when the feed wrote the message. */
  timestamp: string;
  includeBots: boolean;
  tags: string[];
  itemIds: string[];
  /** ISO: scans before it are left out (an endpoint made during the range); null: none is. */
  since: string | null;
}

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
  code: string;
  first_scan_id: number | string | null;
}

/** The batch's body, `{type, timestamp, data: {scans: [...]}}`; null when no scan of it is left. */
export async function scanBatchBody(db: Db, batch: ScanBatch): Promise<string | null> {
  const day =
    db.codec.dialect === 'postgres' ? sql`to_char(s.scanned_at at time zone 'UTC', 'YYYY-MM-DD')` : sql`substr(s.scanned_at, 1, 10)`;
  const rows = await sql<ScanRow>`
    select s.id, s.item_id, s.scanned_at, s.is_bot, s.device, s.os, s.browser, s.country, s.referrer, s.outcome,
           s.rule_id, s.variant, i.code, v.first_scan_id,
           -- The log keeps the destination of codes with rules; a plain URL code sends to its URL.
           coalesce(s.destination, case when s.outcome = 'redirect' and i.content_type = 'url' then i.payload end) as destination
    from scans s
    join qr_items i on i.id = s.item_id
    left join scan_visitors v on v.item_id = s.item_id and v.visitor_hash = s.visitor_hash and v.day = ${day}
    where s.id > ${batch.from} and s.id <= ${batch.to} and i.account_id = ${batch.accountId}
    order by s.id`.execute(db.kysely);
  const filter = { tags: batch.tags, itemIds: batch.itemIds };
  const tags =
    batch.tags.length > 0 ? await tagsOf(db, batch.accountId, [...new Set(rows.rows.map((r) => r.item_id))]) : new Map<string, string[]>();
  const scans: string[] = [];
  for (const scan of rows.rows) {
    const bot = readBool(scan.is_bot);
    if (bot && !batch.includeBots) continue;
    if (batch.since !== null && readTime(scan.scanned_at) < batch.since) continue;
    if (!filterMatches(filter, { id: scan.item_id, tags: tags.get(scan.item_id) ?? [] })) continue;
    scans.push(JSON.stringify(scanData(scan, bot)));
  }
  if (scans.length === 0) return null;
  return `{"type":"scan.created","timestamp":${JSON.stringify(batch.timestamp)},"data":{"scans":[${scans.join(',')}]}}`;
}

/** The body as UTF-8 in shared memory: handed between threads (read worker, sender) without a copy. */
export function sharedBytes(body: string): Uint8Array {
  const bytes = Buffer.from(body, 'utf8');
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
  shared.set(bytes);
  return shared;
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
