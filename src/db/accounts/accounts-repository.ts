// Accounts as an operator sees them: every account with its size, and items found by
// code or id whatever account holds them (the qrtrack command, never the HTTP API).
import { randomUUID } from 'node:crypto';
import { ValidationError } from '../../domain/errors.ts';
import { isUniqueViolation, readTime } from '../codec.ts';
import type { Db } from '../database.ts';

export interface AccountSummary {
  id: string;
  name: string;
  createdAt: string;
  /** Items not deleted. */
  items: number;
  /** Keys not revoked. */
  keys: number;
  /** Human scans of the items not deleted. */
  scans: number;
}

export interface ItemLocation {
  id: string;
  title: string;
  accountId: string;
  accountName: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class AccountsRepository {
  constructor(private readonly db: Db) {}

  async list(): Promise<AccountSummary[]> {
    const rows = await this.db.kysely
      .selectFrom('accounts as a')
      .select((eb) => [
        'a.id',
        'a.name',
        'a.created_at',
        eb
          .selectFrom('qr_items as q')
          .whereRef('q.account_id', '=', 'a.id')
          .where('q.deleted_at', 'is', null)
          .select((e) => e.fn.countAll().as('n'))
          .as('items'),
        eb
          .selectFrom('qr_items as q')
          .whereRef('q.account_id', '=', 'a.id')
          .where('q.deleted_at', 'is', null)
          .select((e) => e.fn.sum('q.scan_count').as('n'))
          .as('scans'),
        eb
          .selectFrom('api_keys as k')
          .whereRef('k.account_id', '=', 'a.id')
          .where('k.revoked_at', 'is', null)
          .select((e) => e.fn.countAll().as('n'))
          .as('keys'),
      ])
      .orderBy('a.name')
      .execute();
    // PostgreSQL answers counts and sums as strings (bigint), SQLite as numbers.
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      createdAt: readTime(r.created_at),
      items: Number(r.items ?? 0),
      keys: Number(r.keys ?? 0),
      scans: Number(r.scans ?? 0),
    }));
  }

  /** A new account; an existing name is an error (keys create reuses accounts instead). */
  async create(name: string, now = new Date().toISOString()): Promise<{ id: string; name: string; createdAt: string }> {
    const id = randomUUID();
    try {
      await this.db.kysely
        .insertInto('accounts')
        .values({ id, name, created_at: this.db.codec.time(now) })
        .execute();
    } catch (err) {
      if (isUniqueViolation(err)) throw new ValidationError(`account "${name}" already exists`);
      throw err;
    }
    return { id, name, createdAt: now };
  }

  /** The live (not deleted) item whose code is `codeOrId` (case-sensitive) or whose id it is. */
  async findItem(codeOrId: string): Promise<ItemLocation | null> {
    const isId = UUID.test(codeOrId);
    const row = await this.db.kysely
      .selectFrom('qr_items as q')
      .innerJoin('accounts as a', 'a.id', 'q.account_id')
      .select(['q.id', 'q.title', 'q.account_id', 'a.name'])
      .where('q.deleted_at', 'is', null)
      .where(isId ? 'q.id' : 'q.code', '=', isId ? codeOrId.toLowerCase() : codeOrId)
      .executeTakeFirst();
    return row ? { id: row.id, title: row.title, accountId: row.account_id, accountName: row.name } : null;
  }
}
