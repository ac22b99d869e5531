// Idempotency keys: the first answer to a create, stored in the same transaction as
// what it created, so a retry finds either both or neither, in any process.
import { readTime } from './codec.ts';
import type { Db } from './database.ts';

export interface StoredAnswer {
  requestHash: string;
  status: number;
  body: unknown;
}

/** Expired keys are pruned once in this many stored answers (per process). */
const PRUNE_EVERY = 200;
let storedSincePrune = 0;

export class IdempotencyRepository {
  constructor(private readonly db: Db) {}

  /** The stored answer for a key, if it was stored after `notBefore` (older keys have expired). */
  async find(accountId: string, key: string, notBefore: string): Promise<StoredAnswer | null> {
    const row = await this.db.kysely
      .selectFrom('idempotency_keys')
      .select(['request_hash', 'status', 'response', 'created_at'])
      .where('account_id', '=', accountId)
      .where('key', '=', key)
      .executeTakeFirst();
    if (!row || readTime(row.created_at) < notBefore) return null;
    return { requestHash: row.request_hash, status: Number(row.status), body: JSON.parse(row.response) };
  }

  /**
   * Stores the answer; false when another request stored one for the same key first (the
   * caller's transaction must then roll back). An expired row for the key is replaced.
   */
  async store(accountId: string, key: string, answer: StoredAnswer, now: string, notBefore: string): Promise<boolean> {
    const k = this.db.kysely;
    await k
      .deleteFrom('idempotency_keys')
      .where('account_id', '=', accountId)
      .where('key', '=', key)
      .where('created_at', '<', this.db.codec.time(notBefore))
      .execute();
    if (++storedSincePrune >= PRUNE_EVERY) {
      storedSincePrune = 0;
      await k.deleteFrom('idempotency_keys').where('created_at', '<', this.db.codec.time(notBefore)).execute();
    }
    const row = {
      account_id: accountId,
      key,
      request_hash: answer.requestHash,
      status: answer.status,
      response: JSON.stringify(answer.body),
      created_at: this.db.codec.time(now),
    };
    // PostgreSQL aborts a transaction on any error, so a conflict is detected without one.
    const res = await k
      .insertInto('idempotency_keys')
      .values(row)
      .onConflict((oc) => oc.columns(['account_id', 'key']).doNothing())
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0n) > 0;
  }
}
