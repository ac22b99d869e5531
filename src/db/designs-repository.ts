// Saved designs of an account. Every query is scoped by account: another account's
// design is indistinguishable from a missing one.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { type QrDesign, resolveDesign } from '../domain/design.ts';
import type { SavedDesignRecord } from '../domain/saved-design.ts';
import type { ListCursor } from '../domain/list-cursor.ts';
import { readTime } from './codec.ts';
import { LIST_PAGE_DESIGN_BYTES } from './qr-items-repository.ts';
import type { Db } from './database.ts';
import type { DesignsTable } from './schema.ts';

export class DesignsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Newest first, from after `cursor`, as many as fit LIST_PAGE_DESIGN_BYTES (at least one):
   * 200 designs with 660 KB logos would make one 130 MB answer. `more` says another page follows.
   */
  async list(accountId: string, cursor?: ListCursor): Promise<{ designs: SavedDesignRecord[]; more: boolean }> {
    const sizes = await this.db.kysely
      .selectFrom('designs')
      .select(['id', sql<number>`octet_length(design_json)`.as('bytes')])
      .where('account_id', '=', accountId)
      .$if(cursor !== undefined, (q) => q.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(this.db.codec.time(cursor!.createdAt), cursor!.id))))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    let bytes = 0;
    let kept = 0;
    while (kept < sizes.length && (kept === 0 || bytes + Number(sizes[kept]!.bytes) <= LIST_PAGE_DESIGN_BYTES)) bytes += Number(sizes[kept++]!.bytes);
    const ids = sizes.slice(0, kept).map((r) => r.id);
    if (ids.length === 0) return { designs: [], more: false };
    const rows = await this.db.kysely.selectFrom('designs').selectAll().where('account_id', '=', accountId).where('id', 'in', ids).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    const designs = ids.flatMap((id) => {
      const row = byId.get(id);
      return row === undefined ? [] : [toRecord(row)];
    });
    return { designs, more: kept < sizes.length };
  }

  async count(accountId: string): Promise<number> {
    const row = await this.db.kysely.selectFrom('designs').select(sql<number>`count(*)`.as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async find(accountId: string, id: string): Promise<SavedDesignRecord | null> {
    const row = await this.db.kysely.selectFrom('designs').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async create(accountId: string, name: string, design: QrDesign): Promise<SavedDesignRecord> {
    const now = new Date().toISOString();
    const row: DesignsTable = { id: randomUUID(), account_id: accountId, name, design_json: JSON.stringify(design), created_at: this.db.codec.time(now), updated_at: this.db.codec.time(now) };
    await this.db.kysely.insertInto('designs').values(row).execute();
    return toRecord(row);
  }

  /** Null when the design does not exist in this account. */
  async update(accountId: string, id: string, changes: { name?: string; design?: QrDesign }): Promise<SavedDesignRecord | null> {
    const set: Partial<DesignsTable> = { updated_at: this.db.codec.time(new Date().toISOString()) };
    if (changes.name !== undefined) set.name = changes.name;
    if (changes.design !== undefined) set.design_json = JSON.stringify(changes.design);
    const done = await this.db.kysely.updateTable('designs').set(set).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    return done.numUpdatedRows > 0n ? this.find(accountId, id) : null;
  }

  async remove(accountId: string, id: string): Promise<boolean> {
    const done = await this.db.kysely.deleteFrom('designs').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    return done.numDeletedRows > 0n;
  }
}

function toRecord(r: DesignsTable): SavedDesignRecord {
  // resolveDesign fills options added after the design was saved.
  return { id: r.id, name: r.name, design: resolveDesign(JSON.parse(r.design_json) as Partial<QrDesign>), createdAt: readTime(r.created_at), updatedAt: readTime(r.updated_at) };
}
