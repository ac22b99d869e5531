// Instance-wide settings as key → value rows: the public address and the addresses it had.
import { sql } from 'kysely';
import type { Db } from '../database.ts';

export const PUBLIC_ADDRESS_KEY = 'public_base_url';
/** The account made at first run: its owners own the instance (they may change its address). */
export const SETUP_ACCOUNT_KEY = 'setup_account';
/** A JSON array of the addresses in force before, newest first: their short links keep answering. */
export const PREVIOUS_ADDRESSES_KEY = 'previous_base_urls';

export class InstanceSettingsRepository {
  constructor(private readonly db: Db) {}

  async get(key: string): Promise<string | null> {
    const row = await this.db.kysely.selectFrom('instance_settings').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value ?? null;
  }

  /**
   * The account whose owners own the instance: the one made at first run, or (set up before it
   * was recorded) the oldest account with an owner.
   */
  async instanceAccount(): Promise<string | null> {
    const recorded = await this.get(SETUP_ACCOUNT_KEY);
    if (recorded !== null) return recorded;
    const row = await this.db.kysely
      .selectFrom('accounts')
      .innerJoin('memberships', 'memberships.account_id', 'accounts.id')
      .select('accounts.id')
      .where('memberships.role', '=', 'owner')
      .orderBy('accounts.created_at')
      .orderBy('accounts.id')
      .limit(1)
      .executeTakeFirst();
    return row?.id ?? null;
  }

  async set(key: string, value: string): Promise<void> {
    const now = this.db.codec.time(new Date().toISOString());
    await this.db.kysely
      .insertInto('instance_settings')
      .values({ key, value, updated_at: now })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: sql`excluded.value`, updated_at: sql`excluded.updated_at` }))
      .execute();
  }
}
