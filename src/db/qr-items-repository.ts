// QR items. Every query is scoped by account: another account's item is simply not found.
import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { type Insertable, type Selectable, type Updateable, sql } from 'kysely';
import { resolveDesign } from '../domain/design/design.ts';
import type { ContentType, TypedFields } from '../domain/payload.ts';
import type { NewQrItemContent, QrItemChanges, QrItemRecord } from '../domain/qr-item.ts';
import { foldForSearch, searchableByTrigrams } from '../domain/search-text.ts';
import { generateShortCode } from '../domain/short-code.ts';
import { readBool, readTime } from './codec.ts';
import type { Db } from './database.ts';
import { insertItemsPostgres } from './postgres-bulk-insert.ts';
import { TagsRepository } from './tags-repository.ts';
import { inTransaction } from './transaction.ts';
import type { QrItemsTable } from './schema.ts';

export interface ListQuery {
  limit: number;
  cursor?: { createdAt: string; id: string };
  active?: boolean;
  contentType?: ContentType;
  q?: string;
  /** Exact tag name, normalised (domain/tags.ts). */
  tag?: string;
}

/** What the short link needs to answer, looked up by code (deleted items included: they answer 410). */
export type ShortLinkTarget = Pick<QrItemRecord, 'id' | 'title' | 'code' | 'contentType' | 'payload' | 'active'> & {
  deleted: boolean;
  /** Carried into each scan, so the account roll-ups are written without a lookup. */
  accountId: string;
};

/** An item by its id and short code: what a bulk change answers, so callers can drop cached short links. */
export type ItemRef = Pick<QrItemRecord, 'id' | 'code'>;

const CODE_ATTEMPTS = 8;
/** Rows per INSERT: 20 columns each stays far below SQLite's limit on parameters. */
const INSERT_CHUNK = 500;
/** PostgreSQL gets a column an array parameter: a whole batch is one statement. */
const INSERT_CHUNK_POSTGRES = 5_000;
/** How many of the newest codes a text search reads in order before it asks the trigram index. */
const WALK_BUDGET = 1_000;
/** How many of the newest codes tell which words of a text search are rare (PostgreSQL). */
const RARITY_SAMPLE = 200;

/** Every column but the folded search copies, which only queries need. */
const ITEM_COLUMNS = [
  'id', 'account_id', 'code', 'title', 'content_type', 'payload', 'fields_json', 'design_json', 'active',
  'scan_count', 'unique_scan_count', 'bot_scan_count', 'first_scan_at', 'last_scan_at', 'created_at', 'updated_at', 'deleted_at',
] as const satisfies readonly (keyof QrItemsTable)[];
type ItemRow = Pick<Selectable<QrItemsTable>, (typeof ITEM_COLUMNS)[number]>;

/**
 * A list page holds at most this many bytes of designs (a custom logo is up to 512 KiB of
 * base64 in its design): 200 codes with 660 KB logos made a 135 MB answer, read, parsed and
 * written out on the thread that answers the short links (0.8–2 s, 700 MB). A page stops
 * before that, with nextCursor; it always holds at least one code.
 */
export const LIST_PAGE_DESIGN_BYTES = 4 * 1024 * 1024;

/**
 * A search without a run of three letters or digits (`ab`, `é`, `%%`) has no index to ask: it
 * reads the account's codes in order, this many between two turns of the event loop, and at
 * most SHORT_QUERY_WINDOWS windows a request. A rare one used to read the whole account in one
 * piece (135,000 codes: 150–300 ms of the thread that answers the short links). A page that
 * stops there has nextCursor at the last code read, and the next page reads on from it.
 */
export const SHORT_QUERY_WINDOW = 5_000;
const SHORT_QUERY_WINDOWS = 20;

type ListCursor = NonNullable<ListQuery['cursor']>;

export interface SearchWalk {
  /** Codes read between two turns of the event loop. */
  window: number;
  /** Windows read in one request at most. */
  windows: number;
}

/** The list's columns without the design, which is read apart once the page is cut. */
const LIST_COLUMNS = ITEM_COLUMNS.filter((c) => c !== 'design_json') as Exclude<(typeof ITEM_COLUMNS)[number], 'design_json'>[];
type ListRow = Omit<ItemRow, 'design_json'> & { design_bytes: number };
/** The design's size without reading it: both engines keep a value's length in its header (SQLite ≥ 3.43, PostgreSQL's TOAST pointer). */
const designBytes = sql<number>`octet_length(design_json)`.as('design_bytes');

let lastCreatedMs = 0;
/** Creation times strictly increase within a process, so "newest first" is the order of creation. */
function creationTime(): string {
  lastCreatedMs = Math.max(Date.now(), lastCreatedMs + 1);
  return new Date(lastCreatedMs).toISOString();
}

export class QrItemsRepository {
  private readonly tags: TagsRepository;

  constructor(
    private readonly db: Db,
    /** How a search without an index walks the codes (tests make the windows small). */
    private readonly walk: SearchWalk = { window: SHORT_QUERY_WINDOW, windows: SHORT_QUERY_WINDOWS },
  ) {
    this.tags = new TagsRepository(db);
  }

  async create(accountId: string, content: NewQrItemContent): Promise<QrItemRecord> {
    const [record] = await this.createMany(accountId, [content]);
    if (!record) throw new Error('create: nothing was stored');
    return record;
  }

  /**
   * Stores new items in the order given (each created a millisecond after the one before,
   * so the list shows the last one first). A code already taken (one in trillions) is
   * skipped by the database and drawn again, never an error: an error would abort the
   * caller's transaction on PostgreSQL.
   */
  async createMany(accountId: string, contents: readonly NewQrItemContent[]): Promise<QrItemRecord[]> {
    const rows = contents.map((content) => this.newRow(accountId, content));
    let pending = rows;
    for (let attempt = 1; pending.length > 0; attempt++) {
      if (attempt > CODE_ATTEMPTS) throw new Error('create: no free short code found');
      const stored = new Set<string>();
      const size = this.db.codec.dialect === 'postgres' ? INSERT_CHUNK_POSTGRES : INSERT_CHUNK;
      for (let i = 0; i < pending.length; i += size) {
        const chunk = pending.slice(i, i + size);
        for (const id of await this.insertRows(accountId, chunk)) stored.add(id);
      }
      pending = pending.filter((r) => !stored.has(r.id));
      for (const r of pending) r.code = generateShortCode();
    }
    const records = rows.map((r, i) => ({ ...toRecord({ ...r, created_at: readTime(r.created_at), updated_at: readTime(r.updated_at) }), tags: contents[i]?.tags ?? [] }));
    await this.tags.add(accountId, records);
    return records;
  }

  private async insertRows(accountId: string, rows: (Insertable<QrItemsTable> & ItemRow)[]): Promise<string[]> {
    if (this.db.codec.dialect === 'postgres') {
      return insertItemsPostgres(this.db, accountId, rows.map((r) => ({ ...r, active: readBool(r.active), created_at: readTime(r.created_at) })));
    }
    const done = await this.db.kysely.insertInto('qr_items').values(rows).onConflict((oc) => oc.column('code').doNothing()).returning('id').execute();
    return done.map((r) => r.id);
  }

  private newRow(accountId: string, content: NewQrItemContent): Insertable<QrItemsTable> & ItemRow {
    const t = this.db.codec.time(creationTime());
    return {
      id: randomUUID(),
      account_id: accountId,
      code: generateShortCode(),
      title: content.title,
      content_type: content.contentType,
      payload: content.payload,
      search_title: foldForSearch(content.title),
      search_payload: foldForSearch(content.payload),
      fields_json: JSON.stringify(content.fields),
      design_json: JSON.stringify(content.design),
      active: this.db.codec.bool(true),
      scan_count: 0,
      unique_scan_count: 0,
      bot_scan_count: 0,
      first_scan_at: null,
      last_scan_at: null,
      created_at: t,
      updated_at: t,
      deleted_at: null,
    };
  }

  /**
   * One live item. With `forUpdate` (inside a transaction) its row stays locked on PostgreSQL
   * until the transaction ends, so a read-change-write cannot lose another's write; SQLite runs
   * one transaction at a time already.
   */
  async find(accountId: string, id: string, forUpdate = false): Promise<QrItemRecord | null> {
    let q = this.live(accountId).where('id', '=', id).select(ITEM_COLUMNS);
    if (forUpdate && this.db.codec.dialect === 'postgres') q = q.forUpdate();
    const row = await q.executeTakeFirst();
    if (!row) return null;
    const [record] = await this.withTags([toRecord(row)]);
    return record ?? null;
  }

  /**
   * One page, newest first. Every branch reads an index in (created_at, id) order, so a
   * page costs the same in an account of ten codes or of a million (docs/decisions/lists-and-search.md).
   */
  /**
   * A page of the list, newest first. `more` says whether another page may follow; it starts
   * after `resumeAfter` when given (a search walk that stopped), else after the last item.
   */
  async list(accountId: string, query: ListQuery): Promise<{ items: QrItemRecord[]; more: boolean; resumeAfter?: ListCursor }> {
    const take = query.limit + 1;
    const q = query.q ? foldForSearch(query.q) : '';
    let rows: ListRow[];
    let walkedTo: ListCursor | null = null;
    if (query.tag !== undefined && q !== '') {
      // The tag's codes in order, matched as read (no text index narrows a tag).
      const tag = query.tag;
      ({ rows, walkedTo } = await walkInWindows(this.walk, query.cursor, take, {
        matches: (cursor, upTo, n) => this.pageByTag(accountId, { ...query, cursor }, tag, q, n, upTo),
        edge: (cursor) => this.tagEdge(accountId, { ...query, cursor }, tag),
      }));
    } else if (query.tag !== undefined) {
      rows = await this.pageByTag(accountId, query, query.tag, q, take);
    } else if (q === '') {
      rows = await this.page(accountId, query).select([...LIST_COLUMNS, designBytes]).limit(take).execute();
    } else if (!searchableByTrigrams(q)) {
      // Too short for a trigram: walk the list in order, a window at a time; such queries
      // usually match often, so a page fills fast.
      ({ rows, walkedTo } = await walkInWindows(this.walk, query.cursor, take, {
        matches: (cursor, upTo, n) =>
          this.page(accountId, { ...query, cursor })
            .select([...LIST_COLUMNS, designBytes])
            .where(this.contains(q))
            .$if(upTo !== null, (b) => b.where((eb) => eb(eb.refTuple('created_at', 'id'), '>=', eb.tuple(this.db.codec.time(upTo!.createdAt), upTo!.id))))
            .limit(n)
            .execute(),
        edge: async (cursor) => {
          const row = await this.page(accountId, { ...query, cursor }).select(['created_at', 'id']).limit(1).offset(this.walk.window - 1).executeTakeFirst();
          return row === undefined ? null : { createdAt: readTime(row.created_at), id: row.id };
        },
      }));
    } else {
      // A common word fills the page within the newest few thousand codes; a rare one
      // (or a miss) is found through the trigram index, whose matches are then few.
      rows = await this.matchesAmongNewest(accountId, query, q, take, WALK_BUDGET);
      if (rows.length < take) rows = await this.byTextIndex(accountId, query, q, take);
    }
    const kept = cutByDesignBytes(rows.slice(0, query.limit));
    const designs = await this.designsOf(accountId, kept.map((r) => r.id));
    const items = kept.map((r) => toRecord({ ...r, design_json: designs.get(r.id) ?? '{}' }));
    // A walk that stopped before the page filled goes on from the last code it read.
    const resumeAfter = walkedTo !== null && kept.length === rows.length ? walkedTo : undefined;
    return { items: await this.withTags(items), more: rows.length > kept.length || resumeAfter !== undefined, resumeAfter };
  }

  /** The first `take` matches of q among the `window` newest codes under the other filters, from the cursor on. */
  private matchesAmongNewest(accountId: string, query: ListQuery, q: string, take: number, window: number): Promise<ListRow[]> {
    return this.db.kysely
      .selectFrom(this.page(accountId, query).select([...LIST_COLUMNS, designBytes, 'search_title', 'search_payload']).limit(window).as('w'))
      .select([...LIST_COLUMNS, 'design_bytes'])
      .where(this.contains(q))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(take)
      .execute();
  }

  /** The stored designs of the given codes (a page's: at most LIST_PAGE_DESIGN_BYTES in all). */
  private async designsOf(accountId: string, ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.kysely.selectFrom('qr_items').select(['id', 'design_json']).where('account_id', '=', accountId).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, r.design_json]));
  }

  private async withTags(records: QrItemRecord[]): Promise<QrItemRecord[]> {
    const tags = await this.tags.tagsOf(records.map((r) => r.id));
    for (const r of records) r.tags = tags.get(r.id) ?? [];
    return records;
  }

  /**
   * A tag's codes, newest first, read from the tag index (which holds each code's creation
   * time) and joined to their items; the other filters and q narrow that walk.
   */
  private pageByTag(accountId: string, query: ListQuery, tag: string, q: string, take: number, upTo: ListCursor | null = null): Promise<ListRow[]> {
    return this.tagWalk(accountId, query, tag)
      .select([...LIST_COLUMNS, designBytes])
      .$if(q !== '', (b) => b.where(this.contains(q)))
      // A window of the walk: the tag's codes from the cursor down to `upTo`, that one included.
      .$if(upTo !== null, (b) => b.where((eb) => eb(eb.refTuple('item_created_at', 'tagged_item_id'), '>=', eb.tuple(this.db.codec.time(upTo!.createdAt), upTo!.id))))
      .limit(take)
      .execute();
  }

  /** The tag's live codes under the list filters (not q), from the cursor on, newest first. */
  private tagWalk(accountId: string, query: ListQuery, tag: string) {
    let b = this.db.kysely
      .selectFrom('qr_tags')
      .innerJoin('qr_items', 'qr_items.id', 'qr_tags.tagged_item_id')
      .where('tag_account_id', '=', accountId)
      .where('tag', '=', tag)
      .where('deleted_at', 'is', null);
    if (query.active !== undefined) b = b.where('active', '=', this.db.codec.bool(query.active));
    if (query.contentType !== undefined) b = b.where('content_type', '=', query.contentType);
    const cursor = query.cursor;
    if (cursor) b = b.where((eb) => eb(eb.refTuple('item_created_at', 'tagged_item_id'), '<', eb.tuple(this.db.codec.time(cursor.createdAt), cursor.id)));
    return b.orderBy('item_created_at', 'desc').orderBy('tagged_item_id', 'desc');
  }

  /** Where a window of the tag's walk ends: its last code, or null when the tag has no more. */
  private async tagEdge(accountId: string, query: ListQuery, tag: string): Promise<ListCursor | null> {
    const row = await this.tagWalk(accountId, query, tag).select(['item_created_at', 'tagged_item_id']).limit(1).offset(this.walk.window - 1).executeTakeFirst();
    return row === undefined ? null : { createdAt: readTime(row.item_created_at), id: row.tagged_item_id };
  }

  private async byTextIndex(accountId: string, query: ListQuery, q: string, take: number): Promise<ListRow[]> {
    if (this.db.codec.dialect === 'sqlite') {
      // A trigram phrase is a substring; quotes inside it are doubled.
      const phrase = '"' + q.replaceAll('"', '""') + '"';
      return this.page(accountId, query, { byText: true })
        .select([...LIST_COLUMNS, designBytes])
        .where(sql<boolean>`qr_items.rowid in (select rowid from qr_items_search where qr_items_search match ${phrase})`)
        .where(this.contains(q))
        .limit(take)
        .execute();
    }
    const part = await this.rarestPart(accountId, query, q);
    const pattern = '%' + part.replace(/[\\%_]/g, (c) => '\\' + c) + '%';
    return this.page(accountId, query)
      .select([...LIST_COLUMNS, designBytes])
      .where((eb) => eb.or([eb('search_title', 'like', pattern), eb('search_payload', 'like', pattern)]))
      .$if(part !== q, (b) => b.where(this.contains(q)))
      .limit(take)
      .execute();
  }

  /**
   * What pg_trgm is asked for. GIN reads every posting list of every trigram it is given, so
   * `ticket 1234` reads the lists of `tic`, `ick`, … that hold every code of every account
   * (≈ 65 ms at a million codes), while `1234` alone reads a few entries. So when some word of
   * the query is in none of the account's newest codes (a sample of them), the longest such
   * word is asked for and the whole query checked on the rows found; otherwise every word is
   * common here and the whole query is asked for, as their trigrams together are the rarest.
   */
  private async rarestPart(accountId: string, query: ListQuery, q: string): Promise<string> {
    const words = [...new Set(q.split(/\s+/))].filter(searchableByTrigrams);
    if (words.length < 2) return q;
    const row: Record<string, unknown> = await this.db.kysely
      .selectFrom(this.page(accountId, query).select(['search_title', 'search_payload']).limit(RARITY_SAMPLE).as('w'))
      .select(words.map((w, i) => sql<number>`count(*) filter (where ${this.contains(w)})`.as(`n${i}`)))
      .executeTakeFirstOrThrow();
    const unseen = words.filter((_, i) => Number(row[`n${i}`]) === 0).sort((a, b) => b.length - a.length);
    return unseen[0] ?? q;
  }

  /** The account's live items under the list filters, from the cursor on, newest first. */
  private page(accountId: string, query: ListQuery, opts: { byText?: boolean } = {}) {
    // Driven by the text index, SQLite must start from the trigram matches, not walk the
    // account's list and probe them: the unary + keeps it off the account's indexes.
    let q = opts.byText
      ? this.db.kysely.selectFrom('qr_items').where(sql`+account_id`, '=', accountId).where('deleted_at', 'is', null)
      : this.live(accountId);
    if (query.active !== undefined) q = q.where('active', '=', this.db.codec.bool(query.active));
    if (query.contentType !== undefined) q = q.where('content_type', '=', query.contentType);
    const cursor = query.cursor;
    // A row-value comparison is a range of the index in both databases, so page 1,000 costs what page 1 does.
    if (cursor) q = q.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(this.db.codec.time(cursor.createdAt), cursor.id)));
    return q.orderBy('created_at', 'desc').orderBy('id', 'desc');
  }

  /** Byte-exact substring of the folded title or payload (SQLite's LIKE would fold ASCII case again). */
  private contains(q: string) {
    const fn = this.db.codec.dialect === 'sqlite' ? sql.raw('instr') : sql.raw('strpos');
    return sql<boolean>`(${fn}(search_title, ${q}) > 0 or ${fn}(search_payload, ${q}) > 0)`;
  }

  async update(accountId: string, id: string, changes: QrItemChanges): Promise<QrItemRecord | null> {
    if (changes.tags !== undefined && !this.db.kysely.isTransaction) {
      return inTransaction(this.db, (tx) => new QrItemsRepository(tx).update(accountId, id, changes));
    }
    const set: Updateable<QrItemsTable> = { updated_at: this.db.codec.time(new Date().toISOString()) };
    if (changes.title !== undefined) {
      set.title = changes.title;
      set.search_title = foldForSearch(changes.title);
    }
    if (changes.contentType !== undefined) set.content_type = changes.contentType;
    if (changes.payload !== undefined) {
      set.payload = changes.payload;
      set.search_payload = foldForSearch(changes.payload);
    }
    if (changes.fields !== undefined) set.fields_json = JSON.stringify(changes.fields);
    if (changes.design !== undefined) set.design_json = JSON.stringify(changes.design);
    if (changes.active !== undefined) set.active = this.db.codec.bool(changes.active);
    const res = await this.db.kysely
      .updateTable('qr_items')
      .set(set)
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) return null;
    const item = await this.find(accountId, id);
    if (item && changes.tags !== undefined) {
      await this.tags.replace(accountId, item, changes.tags);
      item.tags = [...changes.tags];
    }
    return item;
  }

  /** Marks the item deleted; the row stays so its code is never handed out again. */
  async softDelete(accountId: string, id: string): Promise<boolean> {
    return (await this.softDeleteMany(accountId, [id])).length > 0;
  }

  /** Deletes the account's live items among `ids` in one transaction; answers those it deleted. */
  async softDeleteMany(accountId: string, ids: readonly string[]): Promise<ItemRef[]> {
    if (ids.length === 0) return [];
    if (!this.db.kysely.isTransaction) return inTransaction(this.db, (tx) => new QrItemsRepository(tx).softDeleteMany(accountId, ids));
    const now = this.db.codec.time(new Date().toISOString());
    const done = await this.db.kysely
      .updateTable('qr_items')
      .set({ deleted_at: now, updated_at: now, active: this.db.codec.bool(false) })
      .where('account_id', '=', accountId)
      .where('id', 'in', ids)
      .where('deleted_at', 'is', null)
      .returning(['id', 'code'])
      .execute();
    // A deleted code leaves its tags: it is in no list, so it must count in none. Nor is it
    // among the top codes, which are walked from its scan total.
    await this.tags.removeAllOf(done.map((r) => r.id));
    if (done.length > 0) await this.db.kysely.deleteFrom('item_scan_totals').where('item_id', 'in', done.map((r) => r.id)).execute();
    return done;
  }

  /**
   * Pauses or resumes the account's live items among `ids` in one statement; answers every
   * one found (also those already in that state), so the caller can tell found from missing.
   */
  async setActiveMany(accountId: string, ids: readonly string[], active: boolean): Promise<ItemRef[]> {
    if (ids.length === 0) return [];
    return this.db.kysely
      .updateTable('qr_items')
      .set({ active: this.db.codec.bool(active), updated_at: this.db.codec.time(new Date().toISOString()) })
      .where('account_id', '=', accountId)
      .where('id', 'in', ids)
      .where('deleted_at', 'is', null)
      .returning(['id', 'code'])
      .execute();
  }

  async findByCode(code: string): Promise<ShortLinkTarget | null> {
    const row = await this.db.kysely
      .selectFrom('qr_items')
      .select(['id', 'account_id', 'title', 'code', 'content_type', 'payload', 'active', 'deleted_at'])
      .where('code', '=', code)
      .executeTakeFirst();
    if (!row) return null;
    return {
      id: row.id,
      accountId: row.account_id,
      title: row.title,
      code: row.code,
      contentType: row.content_type as ContentType,
      payload: row.payload,
      active: readBool(row.active),
      deleted: row.deleted_at !== null,
    };
  }

  private live(accountId: string) {
    return this.db.kysely.selectFrom('qr_items').where('account_id', '=', accountId).where('deleted_at', 'is', null);
  }
}

/**
 * Reads matches window by window (walk.window codes each, a turn of the event loop between)
 * until `take` are found, the codes end, or walk.windows windows are read; `walkedTo` is the
 * last code read when the walk stopped before either. Each window's last code is found first
 * and the matches are then read down to it, that one included: a code deleted or paused
 * between the two reads cannot move the window's end past a code no window read.
 */
async function walkInWindows(
  walk: SearchWalk,
  from: ListCursor | undefined,
  take: number,
  read: {
    /** Matches after `cursor`, down to `upTo` included (null: to the end), at most `n`. */
    matches(cursor: ListCursor | undefined, upTo: ListCursor | null, n: number): Promise<ListRow[]>;
    /** The window's last code after `cursor`, or null when fewer codes are left. */
    edge(cursor: ListCursor | undefined): Promise<ListCursor | null>;
  },
): Promise<{ rows: ListRow[]; walkedTo: ListCursor | null }> {
  const rows: ListRow[] = [];
  let cursor = from;
  for (let w = 0; w < walk.windows; w++) {
    if (w > 0) await nextTurn();
    const edge = await read.edge(cursor);
    rows.push(...(await read.matches(cursor, edge, take - rows.length)));
    if (rows.length >= take || edge === null) return { rows, walkedTo: null };
    cursor = edge;
  }
  return { rows, walkedTo: cursor ?? null };
}

/** The first rows whose designs fit LIST_PAGE_DESIGN_BYTES together; at least one. */
function cutByDesignBytes(rows: readonly ListRow[]): ListRow[] {
  let bytes = 0;
  for (let i = 0; i < rows.length; i++) {
    bytes += Number((rows[i] as ListRow).design_bytes);
    if (bytes > LIST_PAGE_DESIGN_BYTES && i > 0) return rows.slice(0, i);
  }
  return [...rows];
}

function toRecord(row: ItemRow): QrItemRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    code: row.code,
    title: row.title,
    contentType: row.content_type as ContentType,
    payload: row.payload,
    fields: JSON.parse(row.fields_json) as TypedFields,
    design: resolveDesign(JSON.parse(row.design_json)),
    active: readBool(row.active),
    scanCount: Number(row.scan_count),
    createdAt: readTime(row.created_at),
    updatedAt: readTime(row.updated_at),
    tags: [],
  };
}
