// Accounts and their API keys.
import { randomUUID } from 'node:crypto';
import type { Scope } from '../domain/api-key.ts';
import { isUniqueViolation, readTime, readTimeOrNull } from './codec.ts';
import type { Db } from './database.ts';

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
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
      await k.insertInto('accounts').values({ id, name, created_at: this.db.codec.time(now) }).execute();
      return id;
    } catch (err) {
      // Another process created it at the same moment.
      if (!isUniqueViolation(err)) throw err;
      const again = await k.selectFrom('accounts').select('id').where('name', '=', name).executeTakeFirstOrThrow();
      return again.id;
    }
  }

  async findAccountId(name: string): Promise<string | null> {
    const row = await this.db.kysely.selectFrom('accounts').select('id').where('name', '=', name).executeTakeFirst();
    return row?.id ?? null;
  }

  async createKey(input: { accountId: string; name: string; prefix: string; hash: string; scopes: Scope[] }): Promise<ApiKeyRecord> {
    const now = new Date().toISOString();
    const id = randomUUID();
    await this.db.kysely
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
      })
      .execute();
    return { id, accountId: input.accountId, name: input.name, prefix: input.prefix, scopes: input.scopes, createdAt: now, lastUsedAt: null, revokedAt: null };
  }

  async listKeys(accountId: string): Promise<ApiKeyRecord[]> {
    const rows = await this.db.kysely
      .selectFrom('api_keys')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at', 'asc')
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
    }));
  }

  /** Returns false when no such key exists; revoking twice is harmless. */
  async revokeKey(id: string): Promise<boolean> {
    const k = this.db.kysely;
    const row = await k.selectFrom('api_keys').select(['id', 'revoked_at']).where('id', '=', id).executeTakeFirst();
    if (!row) return false;
    if (row.revoked_at === null) {
      await k.updateTable('api_keys').set({ revoked_at: this.db.codec.time(new Date().toISOString()) }).where('id', '=', id).execute();
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
    await this.db.kysely.updateTable('api_keys').set({ last_used_at: this.db.codec.time(now) }).where('id', '=', id).execute();
  }
}

function splitScopes(s: string): Scope[] {
  return s.split(',').filter(Boolean) as Scope[];
}
