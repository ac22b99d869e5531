// One-time links: the first-run setup link, invites and password resets. Stored as the
// SHA-256 of their token; a link is spent by the same transaction that does its work,
// so it works exactly once even when two processes race for it.
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { type Role, resetLinkRefusal } from '../../domain/accounts/roles.ts';
import { GoneError, NotFoundError } from '../../domain/errors.ts';
import { readTime, readTimeOrNull } from '../codec.ts';
import type { Db } from '../database.ts';
import type { Database } from '../schema.ts';

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
  /** An invite's addressee, as the owner typed it. */
  email: string | null;
}

export interface InviteRecord {
  id: string;
  role: Role;
  /** Who it is for, as the owner typed it; null: not said. */
  email: string | null;
  createdBy: string | null;
  createdAt: string;
  expiresAt: string;
}

export class OneTimeLinksRepository {
  constructor(private readonly db: Db) {}

  async create(input: {
    tokenHash: string;
    kind: LinkKind;
    accountId?: string;
    userId?: string;
    role?: Role;
    createdBy?: string;
    now: string;
    expiresAt?: string;
    /** An invite's addressee, as typed (a label for the owner's list). */
    email?: string | null;
  }): Promise<string> {
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
        email: input.email ?? null,
      })
      .execute();
    return id;
  }

  /** A link that can still be used; throws 404 for an unknown token and 410 for a spent, expired or withdrawn one. */
  async usable(kind: LinkKind, tokenHash: string, now: string): Promise<LinkRecord> {
    const row = await this.db.kysely
      .selectFrom('one_time_links')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('kind', '=', kind)
      .executeTakeFirst();
    const link = checkUsable(row ? toRecord(row) : null, now);
    const stale = await staleLinkReason(this.db.kysely, link);
    if (stale) throw new GoneError(stale);
    return link;
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
    return rows.map((r) => ({
      id: r.id,
      role: r.role as Role,
      email: r.email,
      createdBy: r.created_by,
      createdAt: readTime(r.created_at),
      expiresAt: readTime(r.expires_at ?? r.created_at),
    }));
  }

  /** Withdraws every open setup link (a new one replaces them). */
  async withdrawSetupLinks(now: string): Promise<void> {
    await this.db.kysely
      .updateTable('one_time_links')
      .set({ used_at: this.db.codec.time(now) })
      .where('kind', '=', 'setup')
      .where('used_at', 'is', null)
      .execute();
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

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * Withdraws the open links that would still let someone in after `userId` left an account
 * or stopped owning it: the links they made there (invites and resets; only owners make
 * them), and with `resetsFor`, the reset links that would set their own password there.
 */
export async function withdrawLinksOf(
  q: Executor,
  db: Db,
  accountId: string,
  userId: string,
  now: string,
  resetsFor = false,
): Promise<void> {
  await q
    .updateTable('one_time_links')
    .set({ used_at: db.codec.time(now) })
    .where('account_id', '=', accountId)
    .where('used_at', 'is', null)
    .where((eb) =>
      resetsFor
        ? eb.or([eb('created_by', '=', userId), eb.and([eb('kind', '=', 'reset'), eb('user_id', '=', userId)])])
        : eb('created_by', '=', userId),
    )
    .execute();
}

/** Withdraws every open reset link for `userId`: a new password, or signing out everywhere, ends them. */
export async function withdrawResetLinksFor(q: Executor, db: Db, userId: string, now: string): Promise<void> {
  await q
    .updateTable('one_time_links')
    .set({ used_at: db.codec.time(now) })
    .where('kind', '=', 'reset')
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}

/**
 * Why a link made by a member no longer holds, or null when it does. A link is checked when
 * it is made, but used up to days later: by then its maker may have been removed or demoted,
 * or (for a reset) the member may have left the account or joined one its maker does not own.
 */
export async function staleLinkReason(q: Executor, link: LinkRecord): Promise<string | null> {
  if (link.createdBy === null || link.accountId === null) return null; // made by the operator (CLI)
  if (link.kind === 'reset' && link.createdBy === link.userId) return null; // one's own reset link
  const makerRole = await q
    .selectFrom('memberships')
    .select('role')
    .where('account_id', '=', link.accountId)
    .where('user_id', '=', link.createdBy)
    .executeTakeFirst();
  if (makerRole?.role !== 'owner')
    return 'token: this link was withdrawn: whoever made it no longer owns the account; ask an owner for a new one';
  if (link.kind !== 'reset' || link.userId === null) return null;
  const [theirs, owned] = await Promise.all([
    q.selectFrom('memberships').select('account_id').where('user_id', '=', link.userId).execute(),
    q.selectFrom('memberships').select('account_id').where('user_id', '=', link.createdBy).where('role', '=', 'owner').execute(),
  ]);
  if (!theirs.some((m) => m.account_id === link.accountId))
    return 'token: this link was withdrawn: its user is no longer a member of the account; ask for a new one';
  const refusal = resetLinkRefusal(
    theirs.map((m) => m.account_id),
    new Set(owned.map((m) => m.account_id)),
  );
  return refusal === null
    ? null
    : 'token: this link was withdrawn: its user now also belongs to an account its maker does not own; ask for a new one';
}

/** Spends a link inside `trx`; throws like `usable` when it cannot be spent. */
export async function spendLink(trx: Transaction<Database>, db: Db, kind: LinkKind, tokenHash: string, now: string): Promise<LinkRecord> {
  let q = trx.selectFrom('one_time_links').selectAll().where('token_hash', '=', tokenHash).where('kind', '=', kind);
  if (db.codec.dialect === 'postgres') q = q.forUpdate();
  const row = await q.executeTakeFirst();
  const link = checkUsable(row ? toRecord(row) : null, now);
  const stale = await staleLinkReason(trx, link);
  if (stale) throw new GoneError(stale);
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
    email: r.email,
  };
}
