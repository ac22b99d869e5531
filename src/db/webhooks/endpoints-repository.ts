// Webhook endpoints of accounts. Every query a request reaches is scoped by account: another
// account's endpoint is simply not found.
import { randomUUID } from 'node:crypto';
import type { Selectable, Updateable } from 'kysely';
import type { EndpointTarget, WebhookEndpoint } from '../../domain/webhooks/endpoint.ts';
import { ROTATION_OVERLAP_MS, newWebhookSecret } from '../../domain/webhooks/signature.ts';
import type { EndpointFilter, WebhookEvent } from '../../domain/webhooks/webhook-events.ts';
import { readBool, readTime, readTimeOrNull } from '../codec.ts';
import type { Db } from '../database.ts';
import type { WebhookEndpointsTable } from '../schema.ts';

type Row = Selectable<WebhookEndpointsTable>;

export interface NewEndpoint {
  url: string;
  description: string;
  events: WebhookEvent[];
  filter: EndpointFilter;
  includeBots: boolean;
}

export interface EndpointChanges {
  url?: string;
  description?: string;
  events?: WebhookEvent[];
  filter?: EndpointFilter;
  includeBots?: boolean;
  enabled?: boolean;
}

export class WebhookEndpointsRepository {
  constructor(private readonly db: Db) {}

  async count(accountId: string): Promise<number> {
    const row = await this.db.kysely
      .selectFrom('webhook_endpoints')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Stores the endpoint; answers it with its secret (the only time the secret is shown). */
  async create(accountId: string, input: NewEndpoint, now = new Date()): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    const at = this.db.codec.time(now.toISOString());
    const secret = newWebhookSecret();
    const row: Row = {
      id: randomUUID(),
      account_id: accountId,
      url: input.url,
      description: input.description,
      events: JSON.stringify(input.events),
      filter_tags: JSON.stringify(input.filter.tags),
      filter_item_ids: JSON.stringify(input.filter.itemIds),
      include_bots: this.db.codec.bool(input.includeBots),
      secret,
      previous_secret: null,
      previous_secret_until: null,
      disabled_at: null,
      disabled_reason: null,
      consecutive_failures: 0,
      failing_since: null,
      created_at: at,
      updated_at: at,
    };
    await this.db.kysely.insertInto('webhook_endpoints').values(row).execute();
    return { endpoint: toEndpoint(row), secret };
  }

  async list(accountId: string): Promise<WebhookEndpoint[]> {
    const rows = await this.db.kysely
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toEndpoint);
  }

  async find(accountId: string, id: string): Promise<WebhookEndpoint | null> {
    const row = await this.db.kysely
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toEndpoint(row) : null;
  }

  async update(accountId: string, id: string, changes: EndpointChanges, now = new Date()): Promise<WebhookEndpoint | null> {
    const at = this.db.codec.time(now.toISOString());
    const set: Updateable<WebhookEndpointsTable> = { updated_at: at };
    if (changes.url !== undefined) set.url = changes.url;
    if (changes.description !== undefined) set.description = changes.description;
    if (changes.events !== undefined) set.events = JSON.stringify(changes.events);
    if (changes.filter !== undefined) {
      set.filter_tags = JSON.stringify(changes.filter.tags);
      set.filter_item_ids = JSON.stringify(changes.filter.itemIds);
    }
    if (changes.includeBots !== undefined) set.include_bots = this.db.codec.bool(changes.includeBots);
    if (changes.enabled === false) {
      set.disabled_at = at;
      set.disabled_reason = 'manual';
    }
    if (changes.enabled === true) {
      set.disabled_at = null;
      set.disabled_reason = null;
      set.consecutive_failures = 0;
      set.failing_since = null;
    }
    const wasDisabled = changes.enabled === true ? await this.find(accountId, id) : null;
    const res = await this.db.kysely
      .updateTable('webhook_endpoints')
      .set(set)
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) return null;
    // Re-enabled: what waited while it was off goes out now.
    if (wasDisabled !== null && !wasDisabled.enabled)
      await this.db.kysely
        .updateTable('webhook_messages')
        .set({ next_attempt_at: at })
        .where('endpoint_id', '=', id)
        .where('status', '=', 'pending')
        .execute();
    return this.find(accountId, id);
  }

  /** Deletes the endpoint and its messages (sent or not). */
  async delete(accountId: string, id: string): Promise<boolean> {
    const res = await this.db.kysely
      .deleteFrom('webhook_endpoints')
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(res.numDeletedRows) === 0) return false;
    await this.db.kysely.deleteFrom('webhook_messages').where('endpoint_id', '=', id).execute();
    return true;
  }

  /** A new secret; the current one keeps signing beside it for `overlapMs`. */
  async rotateSecret(
    accountId: string,
    id: string,
    now = new Date(),
    overlapMs = ROTATION_OVERLAP_MS,
  ): Promise<{ endpoint: WebhookEndpoint; secret: string } | null> {
    const current = await this.db.kysely
      .selectFrom('webhook_endpoints')
      .select(['secret'])
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!current) return null;
    const secret = newWebhookSecret();
    await this.db.kysely
      .updateTable('webhook_endpoints')
      .set({
        secret,
        previous_secret: overlapMs > 0 ? current.secret : null,
        previous_secret_until: overlapMs > 0 ? this.db.codec.time(new Date(now.getTime() + overlapMs).toISOString()) : null,
        updated_at: this.db.codec.time(now.toISOString()),
      })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('secret', '=', current.secret)
      .execute();
    const endpoint = await this.find(accountId, id);
    return endpoint ? { endpoint, secret } : null;
  }

  /** Where and with which secrets the worker sends (any account: the worker's own read). */
  async targets(ids: readonly string[], nowMs = Date.now()): Promise<Map<string, EndpointTarget>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.kysely
      .selectFrom('webhook_endpoints')
      .select(['id', 'url', 'secret', 'previous_secret', 'previous_secret_until'])
      .where('id', 'in', ids)
      .where('disabled_at', 'is', null)
      .execute();
    return new Map(
      rows.map((r) => {
        const until = readTimeOrNull(r.previous_secret_until);
        const secrets =
          r.previous_secret !== null && until !== null && Date.parse(until) > nowMs ? [r.secret, r.previous_secret] : [r.secret];
        return [r.id, { id: r.id, url: r.url, secrets }];
      }),
    );
  }
}

export function toEndpoint(row: Row): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: JSON.parse(row.events) as WebhookEvent[],
    filter: { tags: JSON.parse(row.filter_tags) as string[], itemIds: JSON.parse(row.filter_item_ids) as string[] },
    includeBots: readBool(row.include_bots),
    enabled: row.disabled_at === null,
    disabledAt: readTimeOrNull(row.disabled_at),
    disabledReason: row.disabled_reason as WebhookEndpoint['disabledReason'],
    consecutiveFailures: Number(row.consecutive_failures),
    failingSince: readTimeOrNull(row.failing_since),
    previousSecretUntil: readTimeOrNull(row.previous_secret_until),
    createdAt: readTime(row.created_at),
    updatedAt: readTime(row.updated_at),
  };
}

/** Those of `ids` that are no live code of the account (a filter may name only its own codes). */
export async function unknownItemIds(db: Db, accountId: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db.kysely
      .selectFrom('qr_items')
      .select('id')
      .where('account_id', '=', accountId)
      .where('id', 'in', ids.slice(i, i + 500))
      .where('deleted_at', 'is', null)
      .execute();
    for (const r of rows) found.add(r.id);
  }
  return ids.filter((id) => !found.has(id));
}
