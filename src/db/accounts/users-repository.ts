// Users: an email and a password hash. Membership in accounts lives in the members repository.
import { randomUUID } from 'node:crypto';
import type { Db } from '../database.ts';
import { withdrawResetLinksFor } from './one-time-links-repository.ts';

export interface UserRecord {
  id: string;
  email: string;
  passwordHash: string;
}

export class UsersRepository {
  constructor(private readonly db: Db) {}

  async any(): Promise<boolean> {
    const row = await this.db.kysely.selectFrom('users').select('id').limit(1).executeTakeFirst();
    return row !== undefined;
  }

  async findByEmail(email: string): Promise<UserRecord | null> {
    const row = await this.db.kysely
      .selectFrom('users')
      .select(['id', 'email', 'password_hash'])
      .where('email', '=', email)
      .executeTakeFirst();
    return row ? { id: row.id, email: row.email, passwordHash: row.password_hash } : null;
  }

  async findById(id: string): Promise<UserRecord | null> {
    const row = await this.db.kysely.selectFrom('users').select(['id', 'email', 'password_hash']).where('id', '=', id).executeTakeFirst();
    return row ? { id: row.id, email: row.email, passwordHash: row.password_hash } : null;
  }

  /** A new password ends every session of the user except `keepSessionHash` (the one that changed it), and their open reset links. */
  async setPassword(userId: string, passwordHash: string, keepSessionHash: string | null): Promise<void> {
    await this.db.kysely.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
      let del = trx.deleteFrom('sessions').where('user_id', '=', userId);
      if (keepSessionHash !== null) del = del.where('id_hash', '!=', keepSessionHash);
      await del.execute();
      await withdrawResetLinksFor(trx, this.db, userId, new Date().toISOString());
    });
  }

  static newId(): string {
    return randomUUID();
  }
}
