// Saved designs of an account. Every query is scoped by account: another account's
// design is indistinguishable from a missing one.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { type QrDesign, resolveDesign } from '../domain/design/design.ts';
import type { SavedDesignRecord } from '../domain/saved-design.ts';
import type { ListCursor } from '../domain/qr-items/list-cursor.ts';
import { readTime } from './codec.ts';
import { LIST_PAGE_DESIGN_BYTES } from './qr-items/qr-items-repository.ts';
import type { Db } from './database.ts';
import type { DesignsTable } from './schema.ts';

export class DesignsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Newest first, from after `cursor`, as many as fit LIST_PAGE_DESIGN_BYTES (at least one), so
   * large logos cannot make a huge answer (docs/performance.md). `more` says another page follows.
   */
  async list(accountId: string, cursor?: ListCursor): Promise<{ designs: SavedDesignRecord[]; more: boolean }> {
    const sizes = await this.db.kysely
      .selectFrom('designs')
      .select(['id', sql<number>`octet_length(design_json)`.as('bytes')])
      .where('account_id', '=', accountId)
      .$if(cursor !== undefined, (q) =>
        q.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(this.db.codec.time(cursor!.createdAt), cursor!.id))),
      )
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    let bytes = 0;
    let kept = 0;
    while (kept < sizes.length && (kept === 0 || bytes + Number(sizes[kept]!.bytes) <= LIST_PAGE_DESIGN_BYTES))
      bytes += Number(sizes[kept++]!.bytes);
    const ids = sizes.slice(0, kept).map((r) => r.id);
    if (ids.length === 0) return { designs: [], more: false };
    const rows = await this.db.kysely
      .selectFrom('designs')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', 'in', ids)
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    const designs = ids.flatMap((id) => {
      const row = byId.get(id);
      return row === undefined ? [] : [toRecord(row)];
    });
    return { designs, more: kept < sizes.length };
  }

  async find(accountId: string, id: string): Promise<SavedDesignRecord | null> {
    const row = await this.db.kysely
      .selectFrom('designs')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  /**
   * Saves a design unless the account already has `max`; null then. The count and the insert
   * are one transaction, with the account's row locked on PostgreSQL (FOR NO KEY UPDATE): creates sent at once
   * each counted 199 and together went past the limit.
   */
  async create(accountId: string, name: string, design: QrDesign, max: number): Promise<SavedDesignRecord | null> {
    return this.db.kysely.transaction().execute(async (trx) => {
      // FOR NO KEY UPDATE: serialises design creates of the account without holding up the
      // inserts that reference the account (codes, sessions), which FOR UPDATE blocked.
      if (this.db.codec.dialect === 'postgres')
        await trx.selectFrom('accounts').select('id').where('id', '=', accountId).forNoKeyUpdate().execute();
      const row = await trx
        .selectFrom('designs')
        .select(sql<number>`count(*)`.as('n'))
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow();
      if (Number(row.n) >= max) return null;
      const now = this.db.codec.time(new Date().toISOString());
      const saved: DesignsTable = {
        id: randomUUID(),
        account_id: accountId,
        name,
        design_json: JSON.stringify(design),
        created_at: now,
        updated_at: now,
      };
      await trx.insertInto('designs').values(saved).execute();
      return toRecord(saved);
    });
  }

  /**
   * Changes a design as `change` says from what is stored now, read with its row locked (on
   * PostgreSQL; SQLite runs one transaction at a time), so changes sent at once all land.
   * Null when the design does not exist in this account.
   */
  async update(
    accountId: string,
    id: string,
    change: (current: SavedDesignRecord) => { name?: string; design?: QrDesign },
  ): Promise<SavedDesignRecord | null> {
    return this.db.kysely.transaction().execute(async (trx) => {
      let q = trx.selectFrom('designs').selectAll().where('account_id', '=', accountId).where('id', '=', id);
      if (this.db.codec.dialect === 'postgres') q = q.forUpdate();
      const row = await q.executeTakeFirst();
      if (!row) return null;
      const changes = change(toRecord(row));
      const set: Partial<DesignsTable> = { updated_at: this.db.codec.time(new Date().toISOString()) };
      if (changes.name !== undefined) set.name = changes.name;
      if (changes.design !== undefined) set.design_json = JSON.stringify(changes.design);
      await trx.updateTable('designs').set(set).where('account_id', '=', accountId).where('id', '=', id).execute();
      return toRecord({ ...row, ...set });
    });
  }

  async remove(accountId: string, id: string): Promise<boolean> {
    const done = await this.db.kysely.deleteFrom('designs').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    return done.numDeletedRows > 0n;
  }
}

function toRecord(r: DesignsTable): SavedDesignRecord {
  // resolveDesign fills options added after the design was saved.
  return {
    id: r.id,
    name: r.name,
    design: resolveDesign(JSON.parse(r.design_json) as Partial<QrDesign>),
    createdAt: readTime(r.created_at),
    updatedAt: readTime(r.updated_at),
  };
}
