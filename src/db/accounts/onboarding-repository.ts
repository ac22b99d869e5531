// The ways a person comes in: the first-run setup, open sign-up, an invite, a password
// reset. Each is one transaction across users, accounts, memberships and the link it
// spends, so nothing is ever half-saved.
import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Role } from '../../domain/accounts/roles.ts';
import { ConflictError, GoneError } from '../../domain/errors.ts';
import { isUniqueViolation } from '../codec.ts';
import type { Db } from '../database.ts';
import { spendLink, withdrawResetLinksFor } from './one-time-links-repository.ts';
import type { Database } from '../schema.ts';

export interface Joined {
  userId: string;
  accountId: string;
}

interface NewPerson {
  accountName: string;
  email: string;
  passwordHash: string;
  now: string;
}

export class OnboardingRepository {
  constructor(private readonly db: Db) {}

  /**
   * Creates the instance's first user as owner. Spends every open setup link at once, so
   * two setups racing with different links cannot both win; an account of the same name
   * made earlier with the CLI is adopted with its keys and codes.
   */
  async completeSetup(tokenHash: string, p: NewPerson): Promise<Joined> {
    return this.run(async (trx) => {
      const spent = await trx
        .updateTable('one_time_links')
        .set({ used_at: this.db.codec.time(p.now) })
        .where('kind', '=', 'setup')
        .where('used_at', 'is', null)
        .returning('token_hash')
        .execute();
      if (!spent.some((r) => r.token_hash === tokenHash)) {
        await spendLink(trx, this.db, 'setup', tokenHash, p.now); // throws the precise reason
        throw new GoneError('token: this link has already been used');
      }
      if (await trx.selectFrom('users').select('id').limit(1).executeTakeFirst())
        throw new GoneError('token: this instance is already set up');
      const existing = await trx.selectFrom('accounts').select('id').where('name', '=', p.accountName).executeTakeFirst();
      const accountId = existing?.id ?? (await this.insertAccount(trx, p.accountName, p.now));
      const userId = await this.insertUser(trx, p.email, p.passwordHash, p.now);
      await this.insertMember(trx, accountId, userId, 'owner', p.now);
      return { userId, accountId };
    });
  }

  /** Open sign-up: a new user owning a new account. */
  async signUp(p: NewPerson): Promise<Joined> {
    return this.run(async (trx) => {
      const accountId = await this.insertAccount(trx, p.accountName, p.now);
      const userId = await this.insertUser(trx, p.email, p.passwordHash, p.now);
      await this.insertMember(trx, accountId, userId, 'owner', p.now);
      return { userId, accountId };
    });
  }

  /** Spends an invite: `existingUserId` joins as is (their password was checked), otherwise a new user is made. */
  async acceptInvite(
    tokenHash: string,
    who: { existingUserId: string } | { email: string; passwordHash: string },
    now: string,
  ): Promise<Joined & { role: Role }> {
    return this.run(async (trx) => {
      const link = await spendLink(trx, this.db, 'invite', tokenHash, now);
      const accountId = link.accountId as string;
      const role = link.role as Role;
      const userId = 'existingUserId' in who ? who.existingUserId : await this.insertUser(trx, who.email, who.passwordHash, now);
      const already = await trx
        .selectFrom('memberships')
        .select('role')
        .where('account_id', '=', accountId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (already) throw new ConflictError('email: is already a member of this account; sign in instead');
      await this.insertMember(trx, accountId, userId, role, now);
      return { userId, accountId, role };
    });
  }

  /** Spends a reset link, sets the password and ends every session of that user. */
  async resetPassword(tokenHash: string, passwordHash: string, now: string): Promise<string> {
    return this.run(async (trx) => {
      const link = await spendLink(trx, this.db, 'reset', tokenHash, now);
      const userId = link.userId as string;
      await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
      await trx.deleteFrom('sessions').where('user_id', '=', userId).execute();
      await withdrawResetLinksFor(trx, this.db, userId, now);
      return userId;
    });
  }

  private async run<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    try {
      return await this.db.kysely.transaction().execute(work);
    } catch (err) {
      if (err instanceof UniqueClash) throw new ConflictError(err.message);
      throw err;
    }
  }

  private async insertAccount(trx: Transaction<Database>, name: string, now: string): Promise<string> {
    const id = randomUUID();
    await guard(
      trx
        .insertInto('accounts')
        .values({ id, name, created_at: this.db.codec.time(now) })
        .execute(),
      'accountName: is already taken; choose another name',
    );
    return id;
  }

  private async insertUser(trx: Transaction<Database>, email: string, passwordHash: string, now: string): Promise<string> {
    const id = randomUUID();
    await guard(
      trx
        .insertInto('users')
        .values({ id, email, password_hash: passwordHash, created_at: this.db.codec.time(now) })
        .execute(),
      'email: is already registered; sign in with it instead',
    );
    return id;
  }

  private async insertMember(trx: Transaction<Database>, accountId: string, userId: string, role: Role, now: string): Promise<void> {
    await trx
      .insertInto('memberships')
      .values({ account_id: accountId, user_id: userId, role, created_at: this.db.codec.time(now) })
      .execute();
  }
}

class UniqueClash extends Error {}

async function guard<T>(work: Promise<T>, message: string): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (isUniqueViolation(err)) throw new UniqueClash(message);
    throw err;
  }
}
