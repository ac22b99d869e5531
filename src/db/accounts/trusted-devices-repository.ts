// Browsers a user has signed in from, by the SHA-256 of their device cookie's token.
import type { Db } from '../database.ts';

/** Devices kept per user: the ones used least lately go first. */
export const DEVICES_PER_USER = 20;

export class TrustedDevicesRepository {
  constructor(private readonly db: Db) {}

  /** The user the device was trusted for, or null for a token we never gave out. */
  async userOf(tokenHash: string): Promise<string | null> {
    const row = await this.db.kysely.selectFrom('trusted_devices').select('user_id').where('token_hash', '=', tokenHash).executeTakeFirst();
    return row?.user_id ?? null;
  }

  /** Trusts a device for the user (or marks it used again), keeping their newest DEVICES_PER_USER. */
  async remember(tokenHash: string, userId: string, now: string): Promise<void> {
    const t = this.db.codec.time(now);
    await this.db.kysely.transaction().execute(async (trx) => {
      await trx
        .insertInto('trusted_devices')
        .values({ token_hash: tokenHash, user_id: userId, created_at: t, last_used_at: t })
        .onConflict((oc) => oc.column('token_hash').doUpdateSet({ last_used_at: t }))
        .execute();
      const stale = await trx
        .selectFrom('trusted_devices')
        .select('token_hash')
        .where('user_id', '=', userId)
        .orderBy('last_used_at', 'desc')
        .orderBy('token_hash')
        .offset(DEVICES_PER_USER)
        .limit(1000)
        .execute();
      if (stale.length > 0)
        await trx
          .deleteFrom('trusted_devices')
          .where(
            'token_hash',
            'in',
            stale.map((r) => r.token_hash),
          )
          .execute();
    });
  }
}
