// Tags of QR items: one row per code and tag in qr_tags. Every query is scoped by
// account; a deleted code's tags are deleted with it.
import { sql } from 'kysely';
import type { Db } from './database.ts';
import { inTransaction } from './transaction.ts';

export interface TagCount {
  name: string;
  count: number;
}

export class TagsRepository {
  constructor(private readonly db: Db) {}

  /** Tags of the given items, each list sorted. */
  async tagsOf(itemIds: readonly string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (itemIds.length === 0) return out;
    const rows = await this.db.kysely.selectFrom('qr_tags').select(['tagged_item_id', 'tag']).where('tagged_item_id', 'in', itemIds).orderBy('tag').execute();
    for (const r of rows) {
      const list = out.get(r.tagged_item_id);
      if (list) list.push(r.tag);
      else out.set(r.tagged_item_id, [r.tag]);
    }
    return out;
  }

  /** Sets an item's tags to exactly `tags` (call inside the item's transaction). */
  async replace(accountId: string, item: { id: string; createdAt: string }, tags: readonly string[]): Promise<void> {
    await this.db.kysely.deleteFrom('qr_tags').where('tagged_item_id', '=', item.id).execute();
    await this.add(accountId, [{ ...item, tags }]);
  }

  async add(accountId: string, items: readonly { id: string; createdAt: string; tags?: readonly string[] }[]): Promise<void> {
    const rows = items.flatMap((i) =>
      (i.tags ?? []).map((tag) => ({ tag_account_id: accountId, tag, tagged_item_id: i.id, item_created_at: this.db.codec.time(i.createdAt) })),
    );
    // 4 parameters a row: 2,000 rows a statement stays below SQLite's and PostgreSQL's limits.
    for (let i = 0; i < rows.length; i += 2_000) await this.db.kysely.insertInto('qr_tags').values(rows.slice(i, i + 2_000)).execute();
  }

  async removeAllOf(itemIds: readonly string[]): Promise<void> {
    if (itemIds.length === 0) return;
    await this.db.kysely.deleteFrom('qr_tags').where('tagged_item_id', 'in', itemIds).execute();
  }

  /** Every tag of the account with its number of codes, by name. */
  async list(accountId: string): Promise<TagCount[]> {
    const rows = await this.db.kysely
      .selectFrom('qr_tags')
      .select(['tag', sql<number>`count(*)`.as('n')])
      .where('tag_account_id', '=', accountId)
      .groupBy('tag')
      .orderBy('tag')
      .execute();
    return rows.map((r) => ({ name: r.tag, count: Number(r.n) }));
  }

  /** Renames a tag on every code; codes that already carry `to` keep it once. False when `from` is unknown. */
  async rename(accountId: string, from: string, to: string): Promise<boolean> {
    if (from === to) return this.exists(accountId, from);
    return inTransaction(this.db, async (tx) => {
      const k = tx.kysely;
      await k
        .insertInto('qr_tags')
        .columns(['tag_account_id', 'tag', 'tagged_item_id', 'item_created_at'])
        .expression(
          k.selectFrom('qr_tags').select(['tag_account_id', sql<string>`cast(${to} as text)`.as('tag'), 'tagged_item_id', 'item_created_at']).where('tag_account_id', '=', accountId).where('tag', '=', from),
        )
        .onConflict((oc) => oc.columns(['tagged_item_id', 'tag']).doNothing())
        .execute();
      const res = await k.deleteFrom('qr_tags').where('tag_account_id', '=', accountId).where('tag', '=', from).executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
    });
  }

  /** Takes a tag off every code. False when the account has no such tag. */
  async remove(accountId: string, name: string): Promise<boolean> {
    const res = await this.db.kysely.deleteFrom('qr_tags').where('tag_account_id', '=', accountId).where('tag', '=', name).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  private async exists(accountId: string, name: string): Promise<boolean> {
    const row = await this.db.kysely.selectFrom('qr_tags').select('tag').where('tag_account_id', '=', accountId).where('tag', '=', name).limit(1).executeTakeFirst();
    return row !== undefined;
  }
}
