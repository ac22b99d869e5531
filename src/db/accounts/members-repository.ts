// The members of an account and their roles. An account always keeps at least one
// owner: demoting or removing the last one is refused inside the same transaction
// that would do it, with the owners' rows locked on PostgreSQL.
import type { Transaction } from 'kysely';
import type { Role } from '../../domain/accounts/roles.ts';
import { ConflictError, NotFoundError } from '../../domain/errors.ts';
import { readTime } from '../codec.ts';
import type { Db } from '../database.ts';
import { withdrawLinksOf } from './one-time-links-repository.ts';
import type { Database } from '../schema.ts';

export interface MemberRecord {
  userId: string;
  email: string;
  role: Role;
  joinedAt: string;
}

export interface MembershipRecord {
  accountId: string;
  accountName: string;
  role: Role;
}

const LAST_OWNER = 'role: the account needs at least one owner; make another member owner first';

export class MembersRepository {
  constructor(private readonly db: Db) {}

  async accountsOf(userId: string): Promise<MembershipRecord[]> {
    const rows = await this.db.kysely
      .selectFrom('memberships')
      .innerJoin('accounts', 'accounts.id', 'memberships.account_id')
      .select(['accounts.id', 'accounts.name', 'memberships.role'])
      .where('memberships.user_id', '=', userId)
      .orderBy('accounts.name')
      .execute();
    return rows.map((r) => ({ accountId: r.id, accountName: r.name, role: r.role as Role }));
  }

  async roleOf(accountId: string, userId: string): Promise<Role | null> {
    const row = await this.db.kysely
      .selectFrom('memberships')
      .select('role')
      .where('account_id', '=', accountId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row ? (row.role as Role) : null;
  }

  async list(accountId: string): Promise<MemberRecord[]> {
    const rows = await this.db.kysely
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select(['users.id', 'users.email', 'memberships.role', 'memberships.created_at'])
      .where('memberships.account_id', '=', accountId)
      .orderBy('memberships.created_at')
      .orderBy('users.email')
      .execute();
    return rows.map((r) => ({ userId: r.id, email: r.email, role: r.role as Role, joinedAt: readTime(r.created_at) }));
  }

  async changeRole(accountId: string, userId: string, role: Role): Promise<void> {
    await this.db.kysely.transaction().execute(async (trx) => {
      const current = await this.lockedRole(trx, accountId, userId);
      if (current === 'owner' && role !== 'owner') {
        await this.assertAnotherOwner(trx, accountId, userId);
        // The invites and reset links they made as owner go with the role.
        await withdrawLinksOf(trx, this.db, accountId, userId, new Date().toISOString());
      }
      await trx.updateTable('memberships').set({ role }).where('account_id', '=', accountId).where('user_id', '=', userId).execute();
    });
  }

  /**
   * Removes the member, ends their sessions in this account and withdraws the links they made or
   * that reset them here; unless told otherwise, revokes the account's API keys they made (a
   * removed member could have copied them).
   */
  async remove(accountId: string, userId: string, { revokeKeys = true }: { revokeKeys?: boolean } = {}): Promise<void> {
    await this.db.kysely.transaction().execute(async (trx) => {
      const current = await this.lockedRole(trx, accountId, userId);
      if (current === 'owner') await this.assertAnotherOwner(trx, accountId, userId);
      await trx.deleteFrom('memberships').where('account_id', '=', accountId).where('user_id', '=', userId).execute();
      await trx.deleteFrom('sessions').where('account_id', '=', accountId).where('user_id', '=', userId).execute();
      const now = new Date().toISOString();
      await withdrawLinksOf(trx, this.db, accountId, userId, now, true);
      if (revokeKeys) {
        await trx
          .updateTable('api_keys')
          .set({ revoked_at: this.db.codec.time(now) })
          .where('account_id', '=', accountId)
          .where('created_by', '=', userId)
          .where('revoked_at', 'is', null)
          .execute();
      }
    });
  }

  private async lockedRole(trx: Transaction<Database>, accountId: string, userId: string): Promise<Role> {
    // Lock every owner row of the account first, so two owners demoting each other cannot both succeed.
    let owners = trx.selectFrom('memberships').select('user_id').where('account_id', '=', accountId).where('role', '=', 'owner');
    if (this.db.codec.dialect === 'postgres') owners = owners.forUpdate();
    await owners.execute();
    const row = await trx
      .selectFrom('memberships')
      .select('role')
      .where('account_id', '=', accountId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('member not found');
    return row.role as Role;
  }

  private async assertAnotherOwner(trx: Transaction<Database>, accountId: string, userId: string): Promise<void> {
    const other = await trx
      .selectFrom('memberships')
      .select('user_id')
      .where('account_id', '=', accountId)
      .where('role', '=', 'owner')
      .where('user_id', '!=', userId)
      .limit(1)
      .executeTakeFirst();
    if (!other) throw new ConflictError(LAST_OWNER);
  }
}
