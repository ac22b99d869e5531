// Accounts and their API keys.
import { randomUUID } from 'node:crypto';
import type { Scope } from '../../domain/accounts/api-key.ts';
import { isUniqueViolation, readTime, readTimeOrNull } from '../codec.ts';
import type { Db } from '../database.ts';
import { ConflictError } from '../../domain/errors.ts';
import { graceEnd, keyStatus } from '../../domain/accounts/key-lifecycle.ts';

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
  /** It answers 401 from then on; null: never. A rotated key's is the end of its grace period. */
  expiresAt: string | null;
  /** The successor a rotation made, and when. */
  replacedBy: string | null;
  replacedAt: string | null;
}

export interface KeyForAuth {
  id: string;
  accountId: string;
  scopes: Scope[];
  revokedAt: string | null;
  expiresAt: string | null;
  replacedBy: string | null;
  replacedAt: string | null;
}

export interface RotatedKey {
  previous: ApiKeyRecord;
  successor: ApiKeyRecord;
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

  async findAccount(id: string): Promise<{ id: string; name: string; createdAt: string; scanRetentionDays: number | null } | null> {
    const row = await this.db.kysely.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    return row
      ? {
          id: row.id,
          name: row.name,
          createdAt: readTime(row.created_at),
          scanRetentionDays: row.scan_retention_days === null ? null : Number(row.scan_retention_days),
        }
      : null;
  }

  /** How long the account keeps raw scans (null: forever); retention (scan-retention.ts) applies it within the hour. */
  async setScanRetention(id: string, days: number | null): Promise<void> {
    await this.db.kysely.updateTable('accounts').set({ scan_retention_days: days }).where('id', '=', id).execute();
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
    /** Checked by the caller (checkKeyExpiry); null or absent: it never expires. */
    expiresAt?: string | null;
  }): Promise<ApiKeyRecord> {
    const now = new Date().toISOString();
    const expiresAt = input.expiresAt ?? null;
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
          // Expired keys and rotated ones (their successor counts) are not active.
          .where('revoked_at', 'is', null)
          .where('replaced_by', 'is', null)
          .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', this.db.codec.time(now))]))
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
          expires_at: expiresAt === null ? null : this.db.codec.time(expiresAt),
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
      expiresAt,
      replacedBy: null,
      replacedAt: null,
    };
  }

  /**
   * Makes the key's successor (same name and scopes) and lets the key work on until the grace
   * period ends (or its own expiry, if sooner). Null when no such key exists (in `accountId`,
   * when given); 409 for a key that is revoked, expired or already rotated. The two writes are
   * one transaction, and on PostgreSQL the key's row is locked: two rotations at once make one
   * successor, not two.
   */
  async rotateKey(input: {
    id: string;
    accountId?: string;
    graceSeconds: number;
    prefix: string;
    hash: string;
    /** The successor's expiry (checked by the caller); null: never. */
    expiresAt: string | null;
    /** Who rotated it in the web app; the CLI keeps the old key's maker. */
    createdBy?: { id: string; email: string };
  }): Promise<RotatedKey | null> {
    const nowMs = Date.now();
    const now = new Date(nowMs).toISOString();
    const successorId = randomUUID();
    const time = (iso: string | null) => (iso === null ? null : this.db.codec.time(iso));
    const done = await this.db.kysely.transaction().execute(async (trx) => {
      let q = trx.selectFrom('api_keys').selectAll().where('id', '=', input.id);
      if (input.accountId !== undefined) q = q.where('account_id', '=', input.accountId);
      if (this.db.codec.dialect === 'postgres') q = q.forUpdate();
      const row = await q.executeTakeFirst();
      if (!row) return null;
      const old = { revokedAt: readTimeOrNull(row.revoked_at), expiresAt: readTimeOrNull(row.expires_at), replacedBy: row.replaced_by };
      const status = keyStatus(old, nowMs);
      if (status === 'rotated') throw new ConflictError('key: was already rotated; rotate its successor instead');
      if (status !== 'active') throw new ConflictError(`key: is ${status}; only a working key can be rotated (create a new one instead)`);
      const oldEnd = graceEnd(nowMs, input.graceSeconds, old.expiresAt);
      await trx
        .insertInto('api_keys')
        .values({
          id: successorId,
          account_id: row.account_id,
          name: row.name,
          prefix: input.prefix,
          secret_hash: input.hash,
          scopes: row.scopes,
          created_at: this.db.codec.time(now),
          last_used_at: null,
          revoked_at: null,
          created_by: input.createdBy?.id ?? row.created_by,
          expires_at: time(input.expiresAt),
        })
        .execute();
      await trx
        .updateTable('api_keys')
        .set({ expires_at: time(oldEnd), replaced_by: successorId, replaced_at: time(now) })
        .where('id', '=', row.id)
        .execute();
      return row.account_id;
    });
    if (done === null) return null;
    const keys = await this.listKeys(done, [input.id, successorId]);
    const previous = keys.find((k) => k.id === input.id);
    const successor = keys.find((k) => k.id === successorId);
    if (!previous || !successor) throw new Error('a rotated key vanished');
    return { previous, successor };
  }

  /** The account's keys, oldest first (only those of `ids`, when given). */
  async listKeys(accountId: string, ids?: readonly string[]): Promise<ApiKeyRecord[]> {
    let q = this.db.kysely
      .selectFrom('api_keys')
      .leftJoin('users', 'users.id', 'api_keys.created_by')
      .selectAll('api_keys')
      .select('users.email as creator_email')
      .where('account_id', '=', accountId);
    if (ids !== undefined) q = q.where('api_keys.id', 'in', ids);
    const rows = await q.orderBy('api_keys.created_at', 'asc').orderBy('api_keys.id').execute();
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
      expiresAt: readTimeOrNull(r.expires_at),
      replacedBy: r.replaced_by,
      replacedAt: readTimeOrNull(r.replaced_at),
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
      .select(['id', 'account_id', 'scopes', 'revoked_at', 'expires_at', 'replaced_by', 'replaced_at'])
      .where('secret_hash', '=', hash)
      .executeTakeFirst();
    if (!row) return null;
    return {
      id: row.id,
      accountId: row.account_id,
      scopes: splitScopes(row.scopes),
      revokedAt: readTimeOrNull(row.revoked_at),
      expiresAt: readTimeOrNull(row.expires_at),
      replacedBy: row.replaced_by,
      replacedAt: readTimeOrNull(row.replaced_at),
    };
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
