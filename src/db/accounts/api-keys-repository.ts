// Accounts and their API keys.
import { randomUUID } from 'node:crypto';
import type { Scope } from '../../domain/accounts/api-key.ts';
import { isUniqueViolation, readTime, readTimeOrNull } from '../codec.ts';
import type { Db } from '../database.ts';
import { ConflictError } from '../../domain/errors.ts';

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** The user who made it in the web app; null for keys made with the CLI. */
  createdBy: { id: string; email: string } | null;
}

export interface KeyForAuth {
  id: string;
  accountId: string;
  scopes: Scope[];
  revoked: boolean;
}

export class ApiKeysRepository {
  constructor(private readonly db: Db) {}

  async ensureAccount(name: string, now = new Date().toISOString()): Promise<string> {
    const k = this.db.kysely;
    const found = await k.selectFrom('accounts').select('id').where('name', '=', name).executeTakeFirst();
    if (found) return found.id;
    try {
      const id = randomUUID();
      await k
        .insertInto('accounts')
        .values({ id, name, created_at: this.db.codec.time(now) })
        .execute();
      return id;
    } catch (err) {
      // Another process created it at the same moment.
      if (!isUniqueViolation(err)) throw err;
      const again = await k.selectFrom('accounts').select('id').where('name', '=', name).executeTakeFirstOrThrow();
      return again.id;
    }
  }

  async findAccount(id: string): Promise<{ id: string; name: string; createdAt: string } | null> {
    const row = await this.db.kysely.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? { id: row.id, name: row.name, createdAt: readTime(row.created_at) } : null;
  }

  async findAccountId(name: string): Promise<string | null> {
    const row = await this.db.kysely.selectFrom('accounts').select('id').where('name', '=', name).executeTakeFirst();
    return row?.id ?? null;
  }

  /** `maxActive`: refuse (409) when the account already holds that many unrevoked keys; checked in the insert's transaction. */
  async createKey(input: {
    accountId: string;
    name: string;
    prefix: string;
    hash: string;
    scopes: Scope[];
    createdBy?: { id: string; email: string };
    maxActive?: number;
  }): Promise<ApiKeyRecord> {
    const now = new Date().toISOString();
    const id = randomUUID();
    await this.db.kysely.transaction().execute(async (trx) => {
      if (input.maxActive !== undefined) {
        // The account's row is locked on PostgreSQL, so concurrent creates cannot both pass the count.
        let account = trx.selectFrom('accounts').select('id').where('id', '=', input.accountId);
        if (this.db.codec.dialect === 'postgres') account = account.forUpdate();
        await account.execute();
        const { n } = await trx
          .selectFrom('api_keys')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('account_id', '=', input.accountId)
          .where('revoked_at', 'is', null)
          .executeTakeFirstOrThrow();
        if (Number(n) >= input.maxActive)
          throw new ConflictError(
            `keys: an account may hold at most ${input.maxActive} active API keys; revoke one you no longer use first`,
          );
      }
      await trx
        .insertInto('api_keys')
        .values({
          id,
          account_id: input.accountId,
          name: input.name,
          prefix: input.prefix,
          secret_hash: input.hash,
          scopes: input.scopes.join(','),
          created_at: this.db.codec.time(now),
          last_used_at: null,
          revoked_at: null,
          created_by: input.createdBy?.id ?? null,
        })
        .execute();
    });
    const createdBy = input.createdBy ?? null;
    return {
      id,
      accountId: input.accountId,
      name: input.name,
      prefix: input.prefix,
      scopes: input.scopes,
      createdAt: now,
      lastUsedAt: null,
      revokedAt: null,
      createdBy,
    };
  }

  async listKeys(accountId: string): Promise<ApiKeyRecord[]> {
    const rows = await this.db.kysely
      .selectFrom('api_keys')
      .leftJoin('users', 'users.id', 'api_keys.created_by')
      .selectAll('api_keys')
      .select('users.email as creator_email')
      .where('account_id', '=', accountId)
      .orderBy('api_keys.created_at', 'asc')
      .orderBy('api_keys.id')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      accountId: r.account_id,
      name: r.name,
      prefix: r.prefix,
      scopes: splitScopes(r.scopes),
      createdAt: readTime(r.created_at),
      lastUsedAt: readTimeOrNull(r.last_used_at),
      revokedAt: readTimeOrNull(r.revoked_at),
      createdBy: r.created_by !== null && r.creator_email !== null ? { id: r.created_by, email: r.creator_email } : null,
    }));
  }

  /** Returns false when no such key exists (in `accountId`, when given); revoking twice is harmless. */
  async revokeKey(id: string, accountId?: string): Promise<boolean> {
    const k = this.db.kysely;
    let q = k.selectFrom('api_keys').select(['id', 'revoked_at']).where('id', '=', id);
    if (accountId !== undefined) q = q.where('account_id', '=', accountId);
    const row = await q.executeTakeFirst();
    if (!row) return false;
    if (row.revoked_at === null) {
      await k
        .updateTable('api_keys')
        .set({ revoked_at: this.db.codec.time(new Date().toISOString()) })
        .where('id', '=', id)
        .execute();
    }
    return true;
  }

  async findByHash(hash: string): Promise<KeyForAuth | null> {
    const row = await this.db.kysely
      .selectFrom('api_keys')
      .select(['id', 'account_id', 'scopes', 'revoked_at'])
      .where('secret_hash', '=', hash)
      .executeTakeFirst();
    if (!row) return null;
    return { id: row.id, accountId: row.account_id, scopes: splitScopes(row.scopes), revoked: row.revoked_at !== null };
  }

  async touchLastUsed(id: string, now: string): Promise<void> {
    await this.db.kysely
      .updateTable('api_keys')
      .set({ last_used_at: this.db.codec.time(now) })
      .where('id', '=', id)
      .execute();
  }
}

function splitScopes(s: string): Scope[] {
  return s.split(',').filter(Boolean) as Scope[];
}
