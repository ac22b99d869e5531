// The webhooks' outbox: a message per endpoint and event, inserted in the caller's transaction,
// so an event is stored if and only if the change it tells of committed. The delivery worker
// sends what is pending here; nothing is sent from the request that made the change.
import { randomBase62 } from '../../domain/accounts/api-key.ts';
import { type ItemEventData, eventBody } from '../../domain/webhooks/payloads.ts';
import { type EndpointFilter, type WebhookEvent, type WebhookMessageType, filterMatches } from '../../domain/webhooks/webhook-events.ts';
import { readBool, readTime, readTimeOrNull } from '../codec.ts';
import type { Db } from '../database.ts';
import type { ScanBatch } from './scan-batches.ts';

/** Rows per INSERT (8 columns each), far below SQLite's limit on parameters. */
const INSERT_CHUNK = 500;
/** Items read per query when building item events. */
const READ_CHUNK = 500;

export interface Subscription {
  id: string;
  accountId: string;
  events: WebhookEvent[];
  filter: EndpointFilter;
  includeBots: boolean;
  /** ISO: scans before it are not the endpoint's to hear of. */
  createdAt: string;
}

export interface OutboxMessage {
  endpointId: string;
  accountId: string;
  type: WebhookMessageType;
  /** '' for a scan batch: its body is made when it is sent. */
  body: string;
  /** The scans a scan.created message tells of (scan-batches.ts). */
  scans?: ScanBatch;
  /** Names the body when messages share one (a scan batch). Absent: the body itself is the key. */
  shareKey?: string;
}

/** webhook-id: stable across the message's attempts. */
export function newMessageId(): string {
  return `msg_${randomBase62(24)}`;
}

/** Enabled endpoints subscribed to `type`, of one account or (null) of every account. */
export async function subscriptions(db: Db, accountIds: readonly string[] | null, types: readonly WebhookEvent[]): Promise<Subscription[]> {
  if (accountIds !== null && accountIds.length === 0) return [];
  const rows = await db.kysely
    .selectFrom('webhook_endpoints')
    .select(['id', 'account_id', 'events', 'filter_tags', 'filter_item_ids', 'include_bots', 'created_at'])
    .where('disabled_at', 'is', null)
    .$if(accountIds !== null, (q) => q.where('account_id', 'in', accountIds ?? []))
    .where((eb) => eb.or(types.map((t) => eb('events', 'like', `%"${t}"%`))))
    .execute();
  return rows.map((r) => ({
    id: r.id,
    accountId: r.account_id,
    events: JSON.parse(r.events) as WebhookEvent[],
    filter: { tags: JSON.parse(r.filter_tags) as string[], itemIds: JSON.parse(r.filter_item_ids) as string[] },
    includeBots: readBool(r.include_bots),
    createdAt: readTime(r.created_at),
  }));
}

/**
 * Marks `ids` as told for `kind` (webhook_notices: one table of "told once" marks; for key events
 * the id is the key's), in the transaction that writes their messages.
 */
export async function markNoticed(tx: Db, kind: 'capped' | 'expired' | 'key_expiring', ids: readonly string[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  const at = tx.codec.time(now.toISOString());
  await tx.kysely
    .insertInto('webhook_notices')
    .values(ids.map((item_id) => ({ item_id, kind, created_at: at })))
    .execute();
}

export async function insertMessages(db: Db, messages: readonly OutboxMessage[], now = new Date()): Promise<void> {
  if (messages.length === 0) return;
  const at = db.codec.time(now.toISOString());
  // One payload per distinct body: the endpoints an event goes to share it.
  const payloadOf = new Map<string, string>();
  const payloads: { id: string; body: string; scans: string | null; created_at: string | Date }[] = [];
  for (const m of messages) {
    const key = m.shareKey ?? m.body;
    if (payloadOf.has(key)) continue;
    const id = `pl_${randomBase62(22)}`;
    payloadOf.set(key, id);
    payloads.push({ id, body: m.body, scans: m.scans === undefined ? null : JSON.stringify(m.scans), created_at: at });
  }
  for (let i = 0; i < payloads.length; i += INSERT_CHUNK)
    await db.kysely
      .insertInto('webhook_payloads')
      .values(payloads.slice(i, i + INSERT_CHUNK))
      .execute();
  for (let i = 0; i < messages.length; i += INSERT_CHUNK) {
    await db.kysely
      .insertInto('webhook_messages')
      .values(
        messages.slice(i, i + INSERT_CHUNK).map((m) => ({
          id: newMessageId(),
          endpoint_id: m.endpointId,
          account_id: m.accountId,
          type: m.type,
          payload_id: payloadOf.get(m.shareKey ?? m.body) as string,
          created_at: at,
          status: 'pending',
          next_attempt_at: at,
        })),
      )
      .execute();
  }
}

/**
 * Writes `type` for each of the account's items among `itemIds` to the endpoints subscribed to
 * it (their filters applied), in the caller's transaction. One query when none is subscribed.
 */
export async function recordItemEvents(
  db: Db,
  accountId: string,
  type: WebhookEvent,
  itemIds: readonly string[],
  now = new Date(),
): Promise<void> {
  if (itemIds.length === 0) return;
  const subs = await subscriptions(db, [accountId], [type]);
  if (subs.length === 0) return;
  const timestamp = now.toISOString();
  for (let i = 0; i < itemIds.length; i += READ_CHUNK) {
    const items = await itemData(db, accountId, itemIds.slice(i, i + READ_CHUNK));
    const messages: OutboxMessage[] = [];
    for (const item of items)
      for (const sub of subs)
        if (filterMatches(sub.filter, item)) messages.push({ endpointId: sub.id, accountId, type, body: eventBody(type, timestamp, item) });
    await insertMessages(db, messages, now);
  }
}

/** The items as item events show them (deleted ones too). */
export async function itemData(db: Db, accountId: string, ids: readonly string[]): Promise<ItemEventData[]> {
  if (ids.length === 0) return [];
  const rows = await db.kysely
    .selectFrom('qr_items')
    .select([
      'id',
      'code',
      'title',
      'content_type',
      'fields_json',
      'active',
      'activates_at',
      'expires_at',
      'max_scans',
      'created_at',
      'updated_at',
      'deleted_at',
    ])
    .where('account_id', '=', accountId)
    .where('id', 'in', ids)
    .execute();
  const tags = await tagsOf(db, accountId, ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    const fields = JSON.parse(r.fields_json) as { url?: unknown };
    return [
      {
        id: r.id,
        code: r.code,
        title: r.title,
        contentType: r.content_type,
        url: r.content_type === 'url' && typeof fields.url === 'string' ? fields.url : null,
        active: readBool(r.active),
        tags: tags.get(r.id) ?? [],
        activatesAt: readTimeOrNull(r.activates_at),
        expiresAt: readTimeOrNull(r.expires_at),
        maxScans: r.max_scans === null ? null : Number(r.max_scans),
        createdAt: readTime(r.created_at),
        updatedAt: readTime(r.updated_at),
        deletedAt: readTimeOrNull(r.deleted_at),
      },
    ];
  });
}

export async function tagsOf(db: Db, accountId: string, ids: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (ids.length === 0) return out;
  const rows = await db.kysely
    .selectFrom('qr_tags')
    .select(['tagged_item_id', 'tag'])
    .where('tag_account_id', '=', accountId)
    .where('tagged_item_id', 'in', ids)
    .execute();
  for (const r of rows) {
    const list = out.get(r.tagged_item_id);
    if (list) list.push(r.tag);
    else out.set(r.tagged_item_id, [r.tag]);
  }
  return out;
}
