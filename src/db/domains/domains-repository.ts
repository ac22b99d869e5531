// Custom domains of accounts. Every query that a client's request reaches is scoped by account;
// the directory (domain-directory.ts) and the re-check timer read across accounts.
import { randomUUID } from 'node:crypto';
import type { Selectable, Updateable } from 'kysely';
import { type CheckOutcome, type Domain, type DomainStatus, verificationName } from '../../domain/domains/domain.ts';
import { ConflictError } from '../../domain/errors.ts';
import { isUniqueViolation, readBool, readTime, readTimeOrNull } from '../codec.ts';
import type { Db } from '../database.ts';
import type { DomainsTable } from '../schema.ts';
import { inTransaction } from '../transaction.ts';

export interface DomainSettings {
  isDefault?: boolean;
  fallbackUrl?: string | null;
  rootRedirect?: string | null;
}

/** What a check needs of a domain. */
export interface DomainToCheck {
  id: string;
  hostname: string;
  token: string;
  status: DomainStatus;
  misses: number;
  createdAt: string;
}

type Row = Selectable<DomainsTable>;

export class DomainsRepository {
  constructor(private readonly db: Db) {}

  async create(accountId: string, hostname: string, token: string): Promise<Domain> {
    const now = new Date().toISOString();
    const row: Row = {
      id: randomUUID(),
      account_id: accountId,
      hostname,
      token,
      status: 'pending',
      is_default: this.db.codec.bool(false),
      fallback_url: null,
      root_redirect: null,
      last_error: null,
      misses: 0,
      created_at: this.db.codec.time(now),
      verified_at: null,
      checked_at: null,
    };
    try {
      await this.db.kysely.insertInto('domains').values(row).execute();
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(`hostname: ${hostname} is already among this account's domains`);
      throw err;
    }
    return toDomain(row);
  }

  async list(accountId: string): Promise<Domain[]> {
    const rows = await this.db.kysely
      .selectFrom('domains')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toDomain);
  }

  async count(accountId: string): Promise<number> {
    const row = await this.db.kysely
      .selectFrom('domains')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async find(accountId: string, id: string): Promise<Domain | null> {
    const row = await this.db.kysely
      .selectFrom('domains')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toDomain(row) : null;
  }

  /** Every domain of the instance (few: an account holds at most DOMAINS_PER_ACCOUNT). */
  async all(): Promise<Domain[]> {
    return (await this.db.kysely.selectFrom('domains').selectAll().execute()).map(toDomain);
  }

  /** The account's active domain with this hostname (a code may be put only there). */
  async findActive(accountId: string, hostname: string): Promise<Domain | null> {
    const row = await this.db.kysely
      .selectFrom('domains')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('hostname', '=', hostname)
      .where('status', '=', 'active')
      .executeTakeFirst();
    return row ? toDomain(row) : null;
  }

  /** The account's default domain while it is active; null: the instance's address. */
  async activeDefault(accountId: string): Promise<Domain | null> {
    const row = await this.db.kysely
      .selectFrom('domains')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('status', '=', 'active')
      .where('is_default', '=', this.db.codec.bool(true))
      .executeTakeFirst();
    return row ? toDomain(row) : null;
  }

  /** Changes a domain's settings; one default per account, so making one default unmakes the others. */
  async update(accountId: string, id: string, settings: DomainSettings): Promise<Domain | null> {
    return inTransaction(this.db, async (tx) => {
      const set: Updateable<DomainsTable> = {};
      if (settings.fallbackUrl !== undefined) set.fallback_url = settings.fallbackUrl;
      if (settings.rootRedirect !== undefined) set.root_redirect = settings.rootRedirect;
      if (settings.isDefault !== undefined) {
        set.is_default = tx.codec.bool(settings.isDefault);
        if (settings.isDefault)
          await tx.kysely
            .updateTable('domains')
            .set({ is_default: tx.codec.bool(false) })
            .where('account_id', '=', accountId)
            .execute();
      }
      if (Object.keys(set).length > 0)
        await tx.kysely.updateTable('domains').set(set).where('account_id', '=', accountId).where('id', '=', id).execute();
      return new DomainsRepository(tx).find(accountId, id);
    });
  }

  /**
   * Stores a check's outcome. A hostname is active for one account at most (a unique index):
   * when another account verified it first, this one is failed instead.
   */
  async recordCheck(id: string, outcome: CheckOutcome): Promise<void> {
    const now = this.db.codec.time(new Date().toISOString());
    const set: Updateable<DomainsTable> = {
      status: outcome.status,
      misses: outcome.misses,
      last_error: outcome.lastError,
      checked_at: now,
    };
    if (outcome.verified) set.verified_at = now;
    try {
      await this.db.kysely.updateTable('domains').set(set).where('id', '=', id).execute();
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      await this.db.kysely
        .updateTable('domains')
        .set({ status: 'failed', last_error: 'this hostname is verified by another account of this instance', checked_at: now })
        .where('id', '=', id)
        .execute();
    }
  }

  /** Domains the timer should look at: pending and failed ones not checked lately, and active ones less often. */
  async dueForCheck(pendingEveryMs: number, activeEveryMs: number): Promise<DomainToCheck[]> {
    const now = Date.now();
    const rows = await this.db.kysely
      .selectFrom('domains')
      .select(['id', 'hostname', 'token', 'status', 'misses', 'created_at', 'checked_at'])
      .where('status', 'in', ['pending', 'active'])
      .execute();
    return rows
      .filter((r) => {
        const checked = readTimeOrNull(r.checked_at);
        const every = r.status === 'active' ? activeEveryMs : pendingEveryMs;
        return checked === null || now - Date.parse(checked) >= every;
      })
      .map((r) => ({
        id: r.id,
        hostname: r.hostname,
        token: r.token,
        status: r.status as DomainStatus,
        misses: Number(r.misses),
        createdAt: readTime(r.created_at),
      }));
  }

  async checkInfo(accountId: string, id: string): Promise<DomainToCheck | null> {
    const d = await this.db.kysely
      .selectFrom('domains')
      .select(['id', 'hostname', 'token', 'status', 'misses', 'created_at'])
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return d
      ? {
          id: d.id,
          hostname: d.hostname,
          token: d.token,
          status: d.status as DomainStatus,
          misses: Number(d.misses),
          createdAt: readTime(d.created_at),
        }
      : null;
  }

  /** Live codes on the domain: while there are any it cannot be deleted (their printed links would die). */
  async liveCodes(id: string): Promise<number> {
    const row = await this.db.kysely
      .selectFrom('qr_items')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('domain_id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    const res = await this.db.kysely.deleteFrom('domains').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }
}

function toDomain(r: Row): Domain {
  return {
    id: r.id,
    accountId: r.account_id,
    hostname: r.hostname,
    status: r.status as DomainStatus,
    verification: { name: verificationName(r.hostname), value: r.token },
    isDefault: readBool(r.is_default),
    fallbackUrl: r.fallback_url,
    rootRedirect: r.root_redirect,
    lastError: r.last_error,
    createdAt: readTime(r.created_at),
    verifiedAt: readTimeOrNull(r.verified_at),
    checkedAt: readTimeOrNull(r.checked_at),
  };
}
