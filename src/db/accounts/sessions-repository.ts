// Server-side sessions: the cookie carries a random id, the table its SHA-256, the user
// and the account the session works in. Shared by every app process on one database.
import type { Role } from '../../domain/accounts/roles.ts';
import { readTime } from '../codec.ts';
import type { Db } from '../database.ts';
import { withdrawResetLinksFor } from './one-time-links-repository.ts';

export interface SessionRecord {
  idHash: string;
  userId: string;
  email: string;
  accountId: string;
  accountName: string;
  /** The user's role in the session's account; null once they were removed from it. */
  role: Role | null;
  createdAt: string;
  lastSeenAt: string;
}

export class SessionsRepository {
  constructor(private readonly db: Db) {}

  async create(idHash: string, userId: string, accountId: string, now: string): Promise<void> {
    const t = this.db.codec.time(now);
    await this.db.kysely
      .insertInto('sessions')
      .values({ id_hash: idHash, user_id: userId, account_id: accountId, created_at: t, last_seen_at: t })
      .execute();
  }

  /** Ends the user's oldest sessions beyond `max`, never `keepIdHash` (the one just started). */
  async keepNewest(userId: string, max: number, keepIdHash: string): Promise<void> {
    const newest = await this.db.kysely
      .selectFrom('sessions')
      .select('id_hash')
      .where('user_id', '=', userId)
      .where('id_hash', '!=', keepIdHash)
      .orderBy('created_at', 'desc')
      .orderBy('id_hash')
      .limit(Math.max(0, max - 1))
      .execute();
    await this.db.kysely
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .where('id_hash', 'not in', [keepIdHash, ...newest.map((r) => r.id_hash)])
      .execute();
  }

  async find(idHash: string): Promise<SessionRecord | null> {
    const row = await this.db.kysely
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .innerJoin('accounts as a', 'a.id', 's.account_id')
      .leftJoin('memberships as m', (j) => j.onRef('m.account_id', '=', 's.account_id').onRef('m.user_id', '=', 's.user_id'))
      .select(['s.id_hash', 's.user_id', 'u.email', 's.account_id', 'a.name', 'm.role', 's.created_at', 's.last_seen_at'])
      .where('s.id_hash', '=', idHash)
      .executeTakeFirst();
    if (!row) return null;
    return {
      idHash: row.id_hash,
      userId: row.user_id,
      email: row.email,
      accountId: row.account_id,
      accountName: row.name,
      role: (row.role ?? null) as Role | null,
      createdAt: readTime(row.created_at),
      lastSeenAt: readTime(row.last_seen_at),
    };
  }

  async touch(idHash: string, now: string): Promise<void> {
    await this.db.kysely
      .updateTable('sessions')
      .set({ last_seen_at: this.db.codec.time(now) })
      .where('id_hash', '=', idHash)
      .execute();
  }

  async switchAccount(idHash: string, accountId: string): Promise<void> {
    await this.db.kysely.updateTable('sessions').set({ account_id: accountId }).where('id_hash', '=', idHash).execute();
  }

  async delete(idHash: string): Promise<void> {
    await this.db.kysely.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
  }

  /** Signs the user out everywhere; their open reset links end too (they may fear someone else is in). */
  async deleteAllOf(userId: string): Promise<void> {
    await this.db.kysely.transaction().execute(async (trx) => {
      await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
      await withdrawResetLinksFor(trx, this.db, userId, new Date().toISOString());
    });
  }

  /** Drops sessions idle since `idleBefore` or created before `createdBefore`. */
  async purgeExpired(idleBefore: string, createdBefore: string): Promise<void> {
    await this.db.kysely
      .deleteFrom('sessions')
      .where((eb) =>
        eb.or([eb('last_seen_at', '<', this.db.codec.time(idleBefore)), eb('created_at', '<', this.db.codec.time(createdBefore))]),
      )
      .execute();
  }
}
