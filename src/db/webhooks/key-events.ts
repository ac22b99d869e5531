// apiKey.expiring: an account's API key will stop working within 7 days (issue #28). Checked with
// the codes' expiry; sent once per key (webhook_notices), never for a revoked key or one a rotation
// replaced (its owner already has the successor). Key events concern the account, not a code, so an
// endpoint's code filter does not apply to them. The secret is never in the payload.
import { sql } from 'kysely';
import { eventBody } from '../../domain/webhooks/payloads.ts';
import { readTime } from '../codec.ts';
import type { Db } from '../database.ts';
import { inTransaction } from '../transaction.ts';
import { type OutboxMessage, insertMessages, markNoticed, subscriptions } from './outbox.ts';

/** How long before its expiry a key is announced. */
export const KEY_EXPIRING_NOTICE_MS = 7 * 86_400_000;
/** Names this check among the database's advisory locks (the scan feed has the two before it). */
const KEY_CHECK_LOCK = 7_420_131;

export interface ExpiringKeyData {
  key: { id: string; name: string; prefix: string; scopes: string[]; expiresAt: string };
}

/** Announces the keys expiring within 7 days not announced yet; answers how many. */
export async function tellExpiringKeys(db: Db, now = new Date(), limit = 500): Promise<number> {
  const subs = await subscriptions(db, null, ['apiKey.expiring']);
  if (subs.length === 0) return 0;
  const accounts = [...new Set(subs.map((s) => s.accountId))];
  return inTransaction(db, async (tx) => {
    if (tx.codec.dialect === 'postgres') {
      const got = await sql<{ ok: boolean }>`select pg_try_advisory_xact_lock(${KEY_CHECK_LOCK}, hashtext(current_schema())) as ok`.execute(
        tx.kysely,
      );
      if (got.rows[0]?.ok !== true) return 0;
    }
    const rows = await tx.kysely
      .selectFrom('api_keys as k')
      .select(['k.id', 'k.account_id', 'k.name', 'k.prefix', 'k.scopes', 'k.expires_at'])
      .where('k.account_id', 'in', accounts)
      .where('k.revoked_at', 'is', null)
      .where('k.replaced_by', 'is', null)
      .where('k.expires_at', 'is not', null)
      .where('k.expires_at', '>', tx.codec.time(now.toISOString()))
      .where('k.expires_at', '<=', tx.codec.time(new Date(now.getTime() + KEY_EXPIRING_NOTICE_MS).toISOString()))
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('webhook_notices as n')
              .select('n.item_id')
              .whereRef('n.item_id', '=', 'k.id')
              .where('n.kind', '=', 'key_expiring'),
          ),
        ),
      )
      .limit(limit)
      .execute();
    if (rows.length === 0) return 0;
    await markNoticed(
      tx,
      'key_expiring',
      rows.map((r) => r.id),
      now,
    );
    const messages: OutboxMessage[] = [];
    for (const r of rows) {
      const data: ExpiringKeyData = {
        key: {
          id: r.id,
          name: r.name,
          prefix: r.prefix,
          scopes: r.scopes.split(',').filter(Boolean),
          expiresAt: readTime(r.expires_at ?? ''),
        },
      };
      const body = eventBody('apiKey.expiring', now.toISOString(), data);
      for (const sub of subs)
        if (sub.accountId === r.account_id) messages.push({ endpointId: sub.id, accountId: r.account_id, type: 'apiKey.expiring', body });
    }
    await insertMessages(tx, messages, now);
    return rows.length;
  });
}
