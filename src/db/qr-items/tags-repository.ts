// Tags of QR items: one row per code and tag in qr_tags. Every query is scoped by
// account; a deleted code's tags are deleted with it.
import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import { type Db, betweenSlices } from '../database.ts';
import type { Database, DbTime } from '../schema.ts';
import { inTransaction } from '../transaction.ts';

/** An entry of the tag index (qr_tags_by_tag) after the account and the tag. */
interface TagEdge {
  createdAt: DbTime;
  itemId: string;
}

export interface TagCount {
  name: string;
  count: number;
}

/**
 * Codes in the first transaction when a tag is renamed or removed on SQLite; the next ones are
 * sized by the clock to about SLICE.targetMs each (fixed slices of 2,000 took 20-45 ms of the
 * short links' thread beside a 200,000-code tag, docs/performance.md).
 */
export const TAG_SLICE = 500;
const SLICE = { min: 50, max: 5_000, targetMs: 4 } as const;

export class TagsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Tags in code-point order on both databases: SQLite compares bytes, and PostgreSQL would
   * follow the database's locale (an ICU en-US database put "apple" before "Zebra").
   */
  private byTag() {
    return this.db.codec.dialect === 'postgres' ? sql<string>`tag collate "C"` : sql<string>`tag`;
  }

  /** Tags of the given items, each list sorted. */
  async tagsOf(itemIds: readonly string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (itemIds.length === 0) return out;
    const rows = await this.db.kysely
      .selectFrom('qr_tags')
      .select(['tagged_item_id', 'tag'])
      .where('tagged_item_id', 'in', itemIds)
      .orderBy(this.byTag())
      .execute();
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
      (i.tags ?? []).map((tag) => ({
        tag_account_id: accountId,
        tag,
        tagged_item_id: i.id,
        item_created_at: this.db.codec.time(i.createdAt),
      })),
    );
    // 4 parameters a row: 2,000 rows a statement stays below SQLite's and PostgreSQL's limits.
    for (let i = 0; i < rows.length; i += 2_000)
      await this.db.kysely
        .insertInto('qr_tags')
        .values(rows.slice(i, i + 2_000))
        .execute();
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
      .orderBy(this.byTag())
      .execute();
    return rows.map((r) => ({ name: r.tag, count: Number(r.n) }));
  }

  /**
   * Renames a tag on every code; codes that already carry `to` keep it once. False when `from`
   * is unknown. On SQLite, whose statements hold the thread that answers the short links, a tag
   * is moved a few milliseconds of codes at a time with a turn between (docs/performance.md): until the last
   * slice, the list by tag finds some codes under each name, and a rename cut off midway is
   * finished by renaming again.
   */
  async rename(accountId: string, from: string, to: string): Promise<boolean> {
    if (from === to) return this.exists(accountId, from);
    return (
      (await this.inSlices(accountId, from, async (k, upTo) => {
        const rows = k
          .selectFrom('qr_tags')
          .where(this.ofTag(accountId, from, upTo))
          .select(['tag_account_id', sql<string>`cast(${to} as text)`.as('tag'), 'tagged_item_id', 'item_created_at']);
        await k
          .insertInto('qr_tags')
          .columns(['tag_account_id', 'tag', 'tagged_item_id', 'item_created_at'])
          .expression(rows)
          .onConflict((oc) => oc.columns(['tagged_item_id', 'tag']).doNothing())
          .execute();
      })) > 0
    );
  }

  /** Takes a tag off every code (on SQLite in slices, as rename). False when the account has no such tag. */
  async remove(accountId: string, name: string): Promise<boolean> {
    return (await this.inSlices(accountId, name, async () => {})) > 0;
  }

  /**
   * Runs `move` and then deletes the tag's rows: on PostgreSQL for all of its codes in one
   * transaction, on SQLite a slice of codes a transaction (TAG_SLICE first, then as many as the
   * last slice says fit SLICE.targetMs), with a turn between and the WAL kept short
   * (betweenSlices). A slice is the front of the tag's index up to its n-th entry (the slices before are gone), so each
   * statement reads a range of qr_tags_by_tag as long as the slice; asked by ids, SQLite walks the
   * rest of the tag for each slice (docs/performance.md, F5). Answers how many codes had the tag.
   */
  private async inSlices(
    accountId: string,
    tag: string,
    move: (k: Kysely<Database>, upTo: TagEdge | null) => Promise<void>,
  ): Promise<number> {
    const sliced = this.db.codec.dialect === 'sqlite';
    let done = 0;
    let size = TAG_SLICE;
    for (;;) {
      const started = performance.now();
      const { n, last } = await inTransaction(this.db, async (tx) => {
        const k = tx.kysely;
        const upTo = sliced ? await this.sliceEdge(k, accountId, tag, size) : null;
        await move(k, upTo);
        const del = await k
          .deleteFrom('qr_tags')
          .where(this.ofTag(accountId, tag, upTo))
          .executeTakeFirst();
        return { n: Number(del.numDeletedRows), last: upTo === null };
      });
      done += n;
      if (last) return done;
      const tookMs = Math.max(performance.now() - started, 0.1);
      size = Math.round(Math.min(SLICE.max, size * 2, Math.max(SLICE.min, (n * SLICE.targetMs) / tookMs)));
      await betweenSlices(this.db);
    }
  }

  /** The tag's size-th entry in its index, or null when fewer are left (the last slice takes them all). */
  private async sliceEdge(k: Kysely<Database>, accountId: string, tag: string, size: number): Promise<TagEdge | null> {
    const row = await k
      .selectFrom('qr_tags')
      .select(['item_created_at', 'tagged_item_id'])
      .where('tag_account_id', '=', accountId)
      .where('tag', '=', tag)
      .orderBy('item_created_at')
      .orderBy('tagged_item_id')
      .limit(1)
      .offset(size - 1)
      .executeTakeFirst();
    return row === undefined ? null : { createdAt: row.item_created_at, itemId: row.tagged_item_id };
  }

  /** The tag's rows of the account, up to `upTo` in index order when given. */
  private ofTag(accountId: string, tag: string, upTo: TagEdge | null) {
    return (eb: ExpressionBuilder<Database, 'qr_tags'>) =>
      eb.and([
        eb('tag_account_id', '=', accountId),
        eb('tag', '=', tag),
        ...(upTo === null ? [] : [eb(eb.refTuple('item_created_at', 'tagged_item_id'), '<=', eb.tuple(upTo.createdAt, upTo.itemId))]),
      ]);
  }

  private async exists(accountId: string, name: string): Promise<boolean> {
    const row = await this.db.kysely
      .selectFrom('qr_tags')
      .select('tag')
      .where('tag_account_id', '=', accountId)
      .where('tag', '=', name)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }
}
