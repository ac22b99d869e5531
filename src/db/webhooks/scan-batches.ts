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
import { filterMatches } from '../../domain/webhooks/webhook-events.ts';
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

/**
 * The batch's body, `{type, timestamp, data: {scans: [...]}}`; null when no scan of it is left.
 * Each scan's JSON (ScanEventData) is made by the database (json_object, json_build_object), in
 * C: a JavaScript object and JSON.stringify per scan were most of what a batch cost.
 */
export async function scanBatchBody(db: Db, batch: ScanBatch): Promise<string | null> {
  const pg = db.codec.dialect === 'postgres';
  const day = pg ? sql`to_char(s.scanned_at at time zone 'UTC', 'YYYY-MM-DD')` : sql`substr(s.scanned_at, 1, 10)`;
  // ISO 8601 in UTC to the millisecond, as Date.prototype.toISOString writes it (SQLite stores that text).
  const at = pg ? sql`to_char(s.scanned_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` : sql`s.scanned_at`;
  const human = pg ? sql`not s.is_bot` : sql`s.is_bot = 0`;
  const bot = pg ? sql`s.is_bot` : sql`s.is_bot = 1`;
  const unique = pg
    ? sql`coalesce(v.first_scan_id = s.id, false)`
    : sql`json(case when v.first_scan_id = s.id then 'true' else 'false' end)`;
  const object = sql.raw(pg ? 'json_build_object' : 'json_object');
  const rows = await sql<{ item_id: string; scan: string }>`
    select s.item_id, ${object}(
      'scanId', s.id,
      'scannedAt', ${at},
      'item', ${object}('id', s.item_id, 'code', i.code),
      'classification', case when ${bot} then 'bot' else 'human' end,
      'unique', ${unique},
      'outcome', s.outcome,
      'device', s.device,
      'os', s.os,
      'browser', s.browser,
      'country', s.country,
      'referrerHost', s.referrer,
      -- '' in the log: the code had rules and none matched (logged-scan.ts).
      'ruleId', nullif(s.rule_id, ''),
      'variant', s.variant,
      -- The log keeps the destination of codes with rules; a plain URL code sends to its URL.
      'destination', coalesce(s.destination, case when s.outcome = 'redirect' and i.content_type = 'url' then i.payload end)
    )${sql.raw(pg ? '::text' : '')} as scan
    from scans s
    join qr_items i on i.id = s.item_id
    left join scan_visitors v on v.item_id = s.item_id and v.visitor_hash = s.visitor_hash and v.day = ${day}
    where s.id > ${batch.from} and s.id <= ${batch.to} and i.account_id = ${batch.accountId}
      ${batch.includeBots ? sql`` : sql`and ${human}`}
      ${batch.since === null ? sql`` : sql`and s.scanned_at >= ${db.codec.time(batch.since)}`}
    order by s.id`.execute(db.kysely);
  const filter = { tags: batch.tags, itemIds: batch.itemIds };
  const tags =
    batch.tags.length > 0 ? await tagsOf(db, batch.accountId, [...new Set(rows.rows.map((r) => r.item_id))]) : new Map<string, string[]>();
  const scans = rows.rows.filter((r) => filterMatches(filter, { id: r.item_id, tags: tags.get(r.item_id) ?? [] })).map((r) => r.scan);
  if (scans.length === 0) return null;
  return `{"type":"scan.created","timestamp":${JSON.stringify(batch.timestamp)},"data":{"scans":[${scans.join(',')}]}}`;
}

/** Makes a scan batch's body as shared bytes; null when none of its scans is left. */
export type ScanBatchMaker = (batch: ScanBatch) => Promise<Uint8Array | null>;

/** Makes the bodies over `db`: a read worker's connection, or this thread's (PostgreSQL, SQLite with no read workers). */
export function scanBatchMaker(db: Db): ScanBatchMaker {
  return async (batch) => {
    const body = await scanBatchBody(db, batch);
    return body === null ? null : sharedUtf8(body);
  };
}

/** `text` as UTF-8 written straight into shared memory (one pass, no bytes to copy after). */
export function sharedUtf8(text: string): Uint8Array {
  const shared = new Uint8Array(new SharedArrayBuffer(Buffer.byteLength(text, 'utf8')));
  new TextEncoder().encodeInto(text, shared);
  return shared;
}

/** The bytes in shared memory: handed between threads (read worker, sender) without a copy. */
export function sharedCopy(bytes: Uint8Array): Uint8Array {
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
  shared.set(bytes);
  return shared;
}
