// How a page of the QR items list is read: the account's list, a tag's codes, the trigram
// index, or a walk in windows for searches too short for it. The repository cuts the page
// and adds designs and tags (docs/decisions/lists-and-search.md).
import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql } from 'kysely';
import type { ContentType } from '../../domain/payload/index.ts';
import { foldForSearch, searchableByTrigrams } from '../../domain/qr-items/search-text.ts';
import { readTime } from '../codec.ts';
import { accountTextMatch } from './account-text-match.ts';
import type { Db } from '../database.ts';
import { ITEM_COLUMNS, type ItemRow } from './item-row.ts';
import type { ItemStatus } from '../../domain/dynamic/lifecycle.ts';

export interface ListQuery {
  limit: number;
  cursor?: { createdAt: string; id: string };
  active?: boolean;
  contentType?: ContentType;
  q?: string;
  /** Exact tag name, normalised (domain/qr-items/tags.ts). */
  tag?: string;
  /** The status computed when read (domain/dynamic/lifecycle.ts), as of `now` (epoch ms). */
  status?: ItemStatus;
  now?: number;
}

/** How many of the newest codes a text search reads in order before it asks the trigram index. */
const WALK_BUDGET = 1_000;
/** How many of the newest codes tell which words of a text search are rare (PostgreSQL). */
const RARITY_SAMPLE = 200;

/**
 * A search without a run of three letters or digits (`ab`, `é`, `%%`) has no index to ask: it
 * reads the account's codes in order, this many between two turns of the event loop, and at
 * most SHORT_QUERY_WINDOWS windows a request, so a rare one cannot hold the short links
 * (docs/decisions/lists-and-search.md). A page that stops there has nextCursor at the last code read.
 */
export const SHORT_QUERY_WINDOW = 5_000;
const SHORT_QUERY_WINDOWS = 20;

export type ListCursor = NonNullable<ListQuery['cursor']>;

export interface SearchWalk {
  /** Codes read between two turns of the event loop. */
  window: number;
  /** Windows read in one request at most. */
  windows: number;
  /** How many of the newest codes a text search reads in order before it asks the trigram index (tests make it small). */
  newest?: number;
}

/** The list's columns without the design, which is read apart once the page is cut. */
const LIST_COLUMNS = ITEM_COLUMNS.filter((c) => c !== 'design_json') as Exclude<(typeof ITEM_COLUMNS)[number], 'design_json'>[];
export type ListRow = Omit<ItemRow, 'design_json'> & { design_bytes: number };
/** The design's size without reading it: both engines keep a value's length in its header (SQLite ≥ 3.43, PostgreSQL's TOAST pointer). */
const designBytes = sql<number>`octet_length(design_json)`.as('design_bytes');

/** Windows as the server walks them; tests make them small. */
/**
 * A tag's walk joins each code of the tag to its item, which costs about five times a read of
 * the list in order: its windows are smaller, with as many more windows, so a request reads as
 * far (docs/decisions/lists-and-search.md).
 */
export const TAG_QUERY_WINDOW = 1_000;

/** The walk of a tag with q: windows of at most TAG_QUERY_WINDOW codes, reading as many codes a request as `walk`. */
function tagWalkOf(walk: SearchWalk): SearchWalk {
  const window = Math.min(walk.window, TAG_QUERY_WINDOW);
  return { window, windows: Math.ceil((walk.window * walk.windows) / window) };
}

export const DEFAULT_SEARCH_WALK: SearchWalk = { window: SHORT_QUERY_WINDOW, windows: SHORT_QUERY_WINDOWS };

export class ListPlanner {
  constructor(
    private readonly db: Db,
    private readonly walk: SearchWalk,
  ) {}

  /**
   * One page, newest first. Every branch reads an index in (created_at, id) order, so a
   * page costs the same in an account of ten codes or of a million (docs/decisions/lists-and-search.md).
   * Answers up to `take` rows; `walkedTo` is where a search walk stopped before it found them.
   */
  async rows(accountId: string, query: ListQuery, take: number): Promise<{ rows: ListRow[]; walkedTo: ListCursor | null }> {
    const q = query.q ? foldForSearch(query.q) : '';
    let rows: ListRow[];
    let walkedTo: ListCursor | null = null;
    if (query.tag !== undefined && q !== '') {
      // The tag's codes in order, matched as read (no text index narrows a tag).
      const tag = query.tag;
      const walk = tagWalkOf(this.walk);
      ({ rows, walkedTo } = await walkInWindows(walk, query.cursor, take, {
        matches: (cursor, upTo, n) => this.pageByTag(accountId, { ...query, cursor }, tag, q, n, upTo),
        edge: (cursor) => this.tagEdge(accountId, { ...query, cursor }, tag, walk.window),
      }));
    } else if (query.tag !== undefined) {
      rows = await this.pageByTag(accountId, query, query.tag, q, take);
    } else if (q === '') {
      rows = await this.page(accountId, query)
        .select([...LIST_COLUMNS, designBytes])
        .limit(take)
        .execute();
    } else if (!searchableByTrigrams(q)) {
      // Too short for a trigram: walk the list in order, a window at a time; such queries
      // usually match often, so a page fills fast.
      ({ rows, walkedTo } = await walkInWindows(this.walk, query.cursor, take, {
        matches: (cursor, upTo, n) =>
          this.page(accountId, { ...query, cursor })
            .select([...LIST_COLUMNS, designBytes])
            .where(this.contains(q))
            .$if(upTo !== null, (b) =>
              b.where((eb) => eb(eb.refTuple('created_at', 'id'), '>=', eb.tuple(this.db.codec.time(upTo!.createdAt), upTo!.id))),
            )
            .limit(n)
            .execute(),
        edge: async (cursor) => {
          const row = await this.page(accountId, { ...query, cursor })
            .select(['created_at', 'id'])
            .limit(1)
            .offset(this.walk.window - 1)
            .executeTakeFirst();
          return row === undefined ? null : { createdAt: readTime(row.created_at), id: row.id };
        },
      }));
    } else {
      // A common word fills the page within the newest few thousand codes; a rare one
      // (or a miss) is found through the trigram index, whose matches are then few.
      const newest = this.walk.newest ?? WALK_BUDGET;
      rows = await this.matchesAmongNewest(accountId, query, q, take, newest);
      // When those newest codes were all the account has (under the filters, from the cursor
      // on), every match is in hand: a small account never asks the text index, whose common
      // trigrams (`htt`, `ttp`) list every code of every account (issue #30, F1).
      if (rows.length < take && (await this.hasMoreThan(accountId, query, newest)))
        rows = await this.byTextIndex(accountId, query, q, take);
    }
    return { rows, walkedTo };
  }

  /** Whether the account has more than `n` live codes under the list filters, from the cursor on: one probe of its list index. */
  private async hasMoreThan(accountId: string, query: ListQuery, n: number): Promise<boolean> {
    const row = await this.page(accountId, query).select('id').limit(1).offset(n).executeTakeFirst();
    return row !== undefined;
  }

  /** The first `take` matches of q among the `window` newest codes under the other filters, from the cursor on. */
  private matchesAmongNewest(accountId: string, query: ListQuery, q: string, take: number, window: number): Promise<ListRow[]> {
    return this.db.kysely
      .selectFrom(
        this.page(accountId, query)
          .select([...LIST_COLUMNS, designBytes, 'search_title', 'search_payload'])
          .limit(window)
          .as('w'),
      )
      .select([...LIST_COLUMNS, 'design_bytes'])
      .where(this.contains(q))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(take)
      .execute();
  }

  /**
   * A tag's codes, newest first, read from the tag index (which holds each code's creation
   * time) and joined to their items; the other filters and q narrow that walk.
   */
  private pageByTag(
    accountId: string,
    query: ListQuery,
    tag: string,
    q: string,
    take: number,
    upTo: ListCursor | null = null,
  ): Promise<ListRow[]> {
    return (
      this.tagWalk(accountId, query, tag)
        .select([...LIST_COLUMNS, designBytes])
        .$if(q !== '', (b) => b.where(this.contains(q)))
        // A window of the walk: the tag's codes from the cursor down to `upTo`, that one included.
        .$if(upTo !== null, (b) =>
          b.where((eb) =>
            eb(eb.refTuple('item_created_at', 'tagged_item_id'), '>=', eb.tuple(this.db.codec.time(upTo!.createdAt), upTo!.id)),
          ),
        )
        .limit(take)
        .execute()
    );
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
    if (query.status !== undefined) b = b.where(this.hasStatus(query.status, query.now ?? Date.now()));
    const cursor = query.cursor;
    if (cursor)
      b = b.where((eb) =>
        eb(eb.refTuple('item_created_at', 'tagged_item_id'), '<', eb.tuple(this.db.codec.time(cursor.createdAt), cursor.id)),
      );
    return b.orderBy('item_created_at', 'desc').orderBy('tagged_item_id', 'desc');
  }

  /** Where a window of the tag's walk ends: its last code, or null when the tag has no more. */
  private async tagEdge(accountId: string, query: ListQuery, tag: string, window: number): Promise<ListCursor | null> {
    const row = await this.tagWalk(accountId, query, tag)
      .select(['item_created_at', 'tagged_item_id'])
      .limit(1)
      .offset(window - 1)
      .executeTakeFirst();
    return row === undefined ? null : { createdAt: readTime(row.item_created_at), id: row.tagged_item_id };
  }

  private async byTextIndex(accountId: string, query: ListQuery, q: string, take: number): Promise<ListRow[]> {
    if (this.db.codec.dialect === 'sqlite') {
      const key = await this.db.kysely.selectFrom('search_accounts').select('key').where('account_id', '=', accountId).executeTakeFirst();
      if (key === undefined) return [];
      return this.page(accountId, query, { byText: true })
        .select([...LIST_COLUMNS, designBytes])
        .where(
          sql<boolean>`qr_items.rowid in (select rowid from qr_items_search where qr_items_search match ${accountTextMatch(key.key, q)})`,
        )
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
   * (docs/decisions/lists-and-search.md), while `1234` alone reads a few entries. So when some word of
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
      : this.db.kysely.selectFrom('qr_items').where('account_id', '=', accountId).where('deleted_at', 'is', null);
    if (query.active !== undefined) q = q.where('active', '=', this.db.codec.bool(query.active));
    if (query.contentType !== undefined) q = q.where('content_type', '=', query.contentType);
    if (query.status !== undefined) q = q.where(this.hasStatus(query.status, query.now ?? Date.now()));
    const cursor = query.cursor;
    // A row-value comparison is a range of the index in both databases, so page 1,000 costs what page 1 does.
    if (cursor) q = q.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(this.db.codec.time(cursor.createdAt), cursor.id)));
    return q.orderBy('created_at', 'desc').orderBy('id', 'desc');
  }

  /**
   * The status as a condition, in the precedence paused > expired > capped > scheduled > active.
   * The three refusing states repeat the lifecycle index's condition word for word, so both
   * engines read only the codes that have a lifecycle setting.
   */
  private hasStatus(status: ItemStatus, now: number) {
    const t = this.db.codec.time(new Date(now).toISOString());
    const on = this.db.codec.bool(true);
    const lifecycle = sql<boolean>`(activates_at is not null or expires_at is not null or max_scans is not null)`;
    const notExpired = sql<boolean>`(expires_at is null or expires_at > ${t})`;
    const notCapped = sql<boolean>`(max_scans is null or cap_count < max_scans)`;
    switch (status) {
      case 'paused':
        return sql<boolean>`active = ${this.db.codec.bool(false)}`;
      case 'expired':
        return sql<boolean>`active = ${on} and ${lifecycle} and expires_at <= ${t}`;
      case 'capped':
        return sql<boolean>`active = ${on} and ${lifecycle} and ${notExpired} and cap_count >= max_scans`;
      case 'scheduled':
        return sql<boolean>`active = ${on} and ${lifecycle} and ${notExpired} and ${notCapped} and activates_at > ${t}`;
      case 'active':
        return sql<boolean>`active = ${on} and ${notExpired} and ${notCapped} and (activates_at is null or activates_at <= ${t})`;
    }
  }

  /** Byte-exact substring of the folded title or payload (SQLite's LIKE would fold ASCII case again). */
  private contains(q: string) {
    const fn = this.db.codec.dialect === 'sqlite' ? sql.raw('instr') : sql.raw('strpos');
    return sql<boolean>`(${fn}(search_title, ${q}) > 0 or ${fn}(search_payload, ${q}) > 0)`;
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
