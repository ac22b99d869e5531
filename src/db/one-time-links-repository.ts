// One-time links: the first-run setup link, invites and password resets. Stored as the
// SHA-256 of their token; a link is spent by the same transaction that does its work,
// so it works exactly once even when two processes race for it.
import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Role } from '../domain/accounts/roles.ts';
import { GoneError, NotFoundError } from '../domain/errors.ts';
import { readTime, readTimeOrNull } from './codec.ts';
import type { Db } from './database.ts';
import type { Database } from './schema.ts';

export type LinkKind = 'setup' | 'invite' | 'reset';

export interface LinkRecord {
  id: string;
  kind: LinkKind;
  accountId: string | null;
  userId: string | null;
  role: Role | null;
  createdBy: string | null;
  createdAt: string;
  expiresAt: string | null;
  usedAt: string | null;
}

export interface InviteRecord {
  id: string;
  role: Role;
  createdBy: string | null;
  createdAt: string;
  expiresAt: string;
}

export class OneTimeLinksRepository {
  constructor(private readonly db: Db) {}

  async create(input: { tokenHash: string; kind: LinkKind; accountId?: string; userId?: string; role?: Role; createdBy?: string; now: string; expiresAt?: string }): Promise<string> {
    const id = randomUUID();
    const c = this.db.codec;
    await this.db.kysely
      .insertInto('one_time_links')
      .values({
        id,
        token_hash: input.tokenHash,
        kind: input.kind,
        account_id: input.accountId ?? null,
        user_id: input.userId ?? null,
        role: input.role ?? null,
        created_by: input.createdBy ?? null,
        created_at: c.time(input.now),
        expires_at: input.expiresAt === undefined ? null : c.time(input.expiresAt),
        used_at: null,
      })
      .execute();
    return id;
  }

  /** A link that can still be used; throws 404 for an unknown token and 410 for a spent or expired one. */
  async usable(kind: LinkKind, tokenHash: string, now: string): Promise<LinkRecord> {
    const row = await this.db.kysely.selectFrom('one_time_links').selectAll().where('token_hash', '=', tokenHash).where('kind', '=', kind).executeTakeFirst();
    return checkUsable(row ? toRecord(row) : null, now);
  }

  async openInvites(accountId: string, now: string): Promise<InviteRecord[]> {
    const rows = await this.db.kysely
      .selectFrom('one_time_links')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('kind', '=', 'invite')
      .where('used_at', 'is', null)
      .where('expires_at', '>', this.db.codec.time(now))
      .orderBy('created_at', 'desc')
      .execute();
    return rows.map((r) => ({ id: r.id, role: r.role as Role, createdBy: r.created_by, createdAt: readTime(r.created_at), expiresAt: readTime(r.expires_at ?? r.created_at) }));
  }

  /** Withdraws an open invite of this account; false when there is none with that id. */
  async revokeInvite(accountId: string, id: string, now: string): Promise<boolean> {
    const res = await this.db.kysely
      .updateTable('one_time_links')
      .set({ used_at: this.db.codec.time(now) })
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .where('kind', '=', 'invite')
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return res.numUpdatedRows > 0n;
  }
}

/** Spends a link inside `trx`; throws like `usable` when it cannot be spent. */
export async function spendLink(trx: Transaction<Database>, db: Db, kind: LinkKind, tokenHash: string, now: string): Promise<LinkRecord> {
  let q = trx.selectFrom('one_time_links').selectAll().where('token_hash', '=', tokenHash).where('kind', '=', kind);
  if (db.codec.dialect === 'postgres') q = q.forUpdate();
  const row = await q.executeTakeFirst();
  const link = checkUsable(row ? toRecord(row) : null, now);
  const res = await trx
    .updateTable('one_time_links')
    .set({ used_at: db.codec.time(now) })
    .where('id', '=', link.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (res.numUpdatedRows === 0n) throw new GoneError('token: this link has already been used');
  return link;
}

function checkUsable(link: LinkRecord | null, now: string): LinkRecord {
  if (!link) throw new NotFoundError('token: this link is not valid; ask for a new one');
  if (link.usedAt !== null) throw new GoneError('token: this link has already been used');
  if (link.expiresAt !== null && link.expiresAt <= now) throw new GoneError('token: this link has expired; ask for a new one');
  return link;
}

function toRecord(r: Database['one_time_links']): LinkRecord {
  return {
    id: r.id,
    kind: r.kind as LinkKind,
    accountId: r.account_id,
    userId: r.user_id,
    role: r.role as Role | null,
    createdBy: r.created_by,
    createdAt: readTime(r.created_at),
    expiresAt: readTimeOrNull(r.expires_at),
    usedAt: readTimeOrNull(r.used_at),
  };
}
