// QR items. Every query is scoped by account: another account's item is simply not found.
import { randomUUID } from 'node:crypto';
import { type CompiledQuery, type Insertable, type Updateable, sql } from 'kysely';
import type { ContentType } from '../../domain/payload/index.ts';
import { CodeQuotaError } from '../../domain/qr-items/code-quota.ts';
import type { NewQrItemContent, QrItemChanges, QrItemRecord } from '../../domain/qr-items/qr-item.ts';
import { foldForSearch } from '../../domain/qr-items/search-text.ts';
import { NO_DYNAMIC, type ScanCapBasis, routingFromJson, routingToJson } from '../../domain/dynamic/dynamic-settings.ts';
import { type CompiledRouting, DEFAULT_COMPILED_ROUTING, compileRouting, routingBytes } from '../../domain/dynamic/routing.ts';
import { generateShortCode } from '../../domain/qr-items/short-code.ts';
import { readBool, readTime } from '../codec.ts';
import { type Db, betweenSlices } from '../database.ts';
import type { QrItemsTable } from '../schema.ts';
import { inTransaction } from '../transaction.ts';
import { TURN_EVERY_MS, turnTaker } from '../../event-loop-turns.ts';
import { recordItemEvents } from '../webhooks/outbox.ts';
import { ITEM_COLUMNS, type ItemRow, toRecord } from './item-row.ts';
import { DEFAULT_SEARCH_WALK, type ListCursor, ListPlanner, type ListQuery, type ListRow, type SearchWalk } from './list-planner.ts';
import { insertItemsPostgres } from './postgres-bulk-insert.ts';
import { TagsRepository } from './tags-repository.ts';

export type { ListQuery } from './list-planner.ts';

/** What the short link needs to answer, looked up by code (deleted items included: they answer 410). */
export type ShortLinkTarget = Pick<
  QrItemRecord,
  | 'id'
  | 'title'
  | 'heading'
  | 'code'
  | 'contentType'
  | 'payload'
  | 'active'
  | 'activatesAt'
  | 'expiresAt'
  | 'maxScans'
  | 'scanCapBasis'
  | 'domainId'
> & {
  deleted: boolean;
  /** Carried into each scan, so the account roll-ups are written without a lookup. */
  accountId: string;
  /** activatesAt and expiresAt as epoch ms (null: not set), compared on every scan. */
  opensMs: number | null;
  endsMs: number | null;
  /** Rules compiled once here, while the target is cached. */
  routing: CompiledRouting;
  passwordHash: string | null;
  /** About the heap this target holds: what the short links' cache counts against its budget. */
  approxBytes: number;
};

/** An item by its id and short code: what a bulk change answers, so callers can drop cached short links. */
export type ItemRef = Pick<QrItemRecord, 'id' | 'code'>;

const CODE_ATTEMPTS = 8;
/** Rows per INSERT: 20 columns each stays far below SQLite's limit on parameters. */
const INSERT_CHUNK = 500;
/** PostgreSQL gets a column an array parameter: a whole batch is one statement. */
const INSERT_CHUNK_POSTGRES = 5_000;

/**
 * A list page holds at most this many bytes of designs (a custom logo is up to 512 KiB of base64),
 * so large logos cannot make a huge answer on the short links' thread (docs/performance.md).
 * A page stops before that, with nextCursor; it always holds at least one code.
 */
export const LIST_PAGE_DESIGN_BYTES = 4 * 1024 * 1024;

let lastCreatedMs = 0;
/** Creation times strictly increase within a process, so "newest first" is the order of creation. */
function creationTime(): string {
  lastCreatedMs = Math.max(Date.now(), lastCreatedMs + 1);
  return new Date(lastCreatedMs).toISOString();
}

export class QrItemsRepository {
  private readonly tags: TagsRepository;
  private readonly planner: ListPlanner;
  /** findByCode's query, built at its first call. */
  private shortLinkCompiled: CompiledQuery<ShortLinkRow> | null = null;

  constructor(
    private readonly db: Db,
    /** How a search without an index walks the codes (tests make the windows small). */
    walk: SearchWalk = DEFAULT_SEARCH_WALK,
  ) {
    this.tags = new TagsRepository(db);
    this.planner = new ListPlanner(db, walk);
  }

  async create(accountId: string, content: NewQrItemContent, maxCodes = Number.POSITIVE_INFINITY): Promise<QrItemRecord> {
    const [record] = await this.createMany(accountId, [content], maxCodes);
    if (!record) throw new Error('create: nothing was stored');
    return record;
  }

  /**
   * Stores new items in the order given (each created a millisecond after the one before,
   * so the list shows the last one first). A code already taken (one in trillions) is
   * skipped by the database and drawn again, never an error: an error would abort the
   * caller's transaction on PostgreSQL.
   */
  async createMany(accountId: string, contents: readonly NewQrItemContent[], maxCodes = Number.POSITIVE_INFINITY): Promise<QrItemRecord[]> {
    if (!this.db.kysely.isTransaction)
      return inTransaction(this.db, (tx) => new QrItemsRepository(tx).createMany(accountId, contents, maxCodes));
    await this.addToCodeCount(accountId, contents.length, maxCodes);
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
    const records = rows.map((r, i) => ({
      ...toRecord({ ...r, created_at: readTime(r.created_at), updated_at: readTime(r.updated_at) }),
      tags: contents[i]?.tags ?? [],
    }));
    await this.tags.add(accountId, records);
    await recordItemEvents(
      this.db,
      accountId,
      'item.created',
      records.map((r) => r.id),
    );
    return records;
  }

  /**
   * Adds to the account's count of live codes, in the caller's transaction, unless that takes it
   * past `max` (CodeQuotaError). One conditional update: creates sent at once cannot each see
   * room and together go past the quota (the row is locked until the transaction ends).
   */
  private async addToCodeCount(accountId: string, adding: number, max: number): Promise<void> {
    if (adding === 0) return;
    const added = await this.db.kysely
      .updateTable('accounts')
      .set((eb) => ({ live_codes: eb('live_codes', '+', adding) }))
      .where('id', '=', accountId)
      .$if(Number.isFinite(max), (b) => b.where('live_codes', '<=', max - adding))
      .returning('live_codes')
      .executeTakeFirst();
    if (added !== undefined) return;
    const held = await this.countLive(accountId);
    throw new CodeQuotaError(held, max, adding);
  }

  /** The account's live codes, from its counter. */
  async countLive(accountId: string): Promise<number> {
    const row = await this.db.kysely.selectFrom('accounts').select('live_codes').where('id', '=', accountId).executeTakeFirst();
    return Number(row?.live_codes ?? 0);
  }

  private async insertRows(accountId: string, rows: (Insertable<QrItemsTable> & ItemRow)[]): Promise<string[]> {
    if (this.db.codec.dialect === 'postgres') {
      return insertItemsPostgres(
        this.db,
        accountId,
        rows.map((r) => ({
          ...r,
          active: readBool(r.active),
          created_at: readTime(r.created_at),
          activates_at: r.activates_at === null ? null : readTime(r.activates_at),
          expires_at: r.expires_at === null ? null : readTime(r.expires_at),
          cap_basis: String(r.cap_basis),
        })),
      );
    }
    const done = await this.db.kysely
      .insertInto('qr_items')
      .values(rows)
      .onConflict((oc) => oc.column('code').doNothing())
      .returning('id')
      .execute();
    return done.map((r) => r.id);
  }

  private newRow(accountId: string, content: NewQrItemContent): Insertable<QrItemsTable> & ItemRow {
    const t = this.db.codec.time(creationTime());
    const d = content.dynamic ?? NO_DYNAMIC;
    return {
      id: randomUUID(),
      account_id: accountId,
      code: generateShortCode(),
      title: content.title,
      heading: content.heading ?? null,
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
      activates_at: d.activatesAt === null ? null : this.db.codec.time(d.activatesAt),
      expires_at: d.expiresAt === null ? null : this.db.codec.time(d.expiresAt),
      max_scans: d.maxScans,
      cap_basis: d.scanCapBasis,
      cap_count: 0,
      routing_json: routingToJson(d),
      password_hash: content.passwordHash ?? null,
      domain_id: content.domainId ?? null,
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
   * A page of the list, newest first. `more` says whether another page may follow; it starts
   * after `resumeAfter` when given (a search walk that stopped), else after the last item.
   */
  async list(accountId: string, query: ListQuery): Promise<{ items: QrItemRecord[]; more: boolean; resumeAfter?: ListCursor }> {
    const take = query.limit + 1;
    const { rows, walkedTo } = await this.planner.rows(accountId, query, take);
    const kept = cutByDesignBytes(rows.slice(0, query.limit));
    const designs = await this.designsOf(
      accountId,
      kept.map((r) => r.id),
    );
    const items = kept.map((r) => toRecord({ ...r, design_json: designs.get(r.id) ?? '{}' }));
    // A walk that stopped before the page filled goes on from the last code it read.
    const resumeAfter = walkedTo !== null && kept.length === rows.length ? walkedTo : undefined;
    return { items: await this.withTags(items), more: rows.length > kept.length || resumeAfter !== undefined, resumeAfter };
  }

  /** The stored designs of the given codes (a page's: at most LIST_PAGE_DESIGN_BYTES in all). */
  private async designsOf(accountId: string, ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.kysely
      .selectFrom('qr_items')
      .select(['id', 'design_json'])
      .where('account_id', '=', accountId)
      .where('id', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [r.id, r.design_json]));
  }

  private async withTags(records: QrItemRecord[]): Promise<QrItemRecord[]> {
    const tags = await this.tags.tagsOf(records.map((r) => r.id));
    for (const r of records) r.tags = tags.get(r.id) ?? [];
    return records;
  }

  async update(accountId: string, id: string, changes: QrItemChanges): Promise<QrItemRecord | null> {
    // In one transaction with the webhook events it makes.
    if (!this.db.kysely.isTransaction) return inTransaction(this.db, (tx) => new QrItemsRepository(tx).update(accountId, id, changes));
    const before =
      changes.active === undefined
        ? undefined
        : await this.db.kysely
            .selectFrom('qr_items')
            .select('active')
            .where('account_id', '=', accountId)
            .where('id', '=', id)
            .executeTakeFirst();
    const set: Updateable<QrItemsTable> = { updated_at: this.db.codec.time(new Date().toISOString()) };
    if (changes.title !== undefined) {
      set.title = changes.title;
      set.search_title = foldForSearch(changes.title);
    }
    if (changes.heading !== undefined) set.heading = changes.heading;
    if (changes.contentType !== undefined) set.content_type = changes.contentType;
    if (changes.payload !== undefined) {
      set.payload = changes.payload;
      set.search_payload = foldForSearch(changes.payload);
    }
    if (changes.fields !== undefined) set.fields_json = JSON.stringify(changes.fields);
    if (changes.design !== undefined) set.design_json = JSON.stringify(changes.design);
    if (changes.active !== undefined) set.active = this.db.codec.bool(changes.active);
    const d = changes.dynamic;
    if (d !== undefined) {
      set.activates_at = d.activatesAt === null ? null : this.db.codec.time(d.activatesAt);
      set.expires_at = d.expiresAt === null ? null : this.db.codec.time(d.expiresAt);
      set.max_scans = d.maxScans;
      set.cap_basis = d.scanCapBasis;
      set.routing_json = routingToJson(d);
      // A new cap counts the scans the code already has (on its basis): raising it reopens the code.
    }
    if (changes.passwordHash !== undefined) set.password_hash = changes.passwordHash;
    if (changes.domainId !== undefined) set.domain_id = changes.domainId;
    const recountFrom = changes.recountCap && d ? (d.scanCapBasis === 'unique' ? 'unique_scan_count' : 'scan_count') : null;
    const res = await this.db.kysely
      .updateTable('qr_items')
      .set(set)
      // A new cap counts the scans the code already has (on its basis): raising it reopens the code.
      .$if(recountFrom !== null, (q) => q.set((eb) => ({ cap_count: eb.ref(recountFrom ?? 'scan_count') })))
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
    if (item) {
      const wasActive = before === undefined ? undefined : readBool(before.active);
      const toggled = wasActive !== undefined && wasActive !== item.active;
      const otherChanges = Object.keys(changes).some((k) => k !== 'active' && k !== 'recountCap');
      if (otherChanges) await recordItemEvents(this.db, accountId, 'item.updated', [id]);
      if (toggled) await recordItemEvents(this.db, accountId, item.active ? 'item.resumed' : 'item.paused', [id]);
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
    if (!this.db.kysely.isTransaction) {
      // Bulk actions back to back write the WAL fast: kept short, as a long write's slices keep it.
      await betweenSlices(this.db);
      return inTransaction(this.db, (tx) => new QrItemsRepository(tx).softDeleteMany(accountId, ids));
    }
    const now = this.db.codec.time(new Date().toISOString());
    const done = await this.db.kysely
      .updateTable('qr_items')
      .set({ deleted_at: now, updated_at: now, active: this.db.codec.bool(false) })
      .where(this.accountNotByIndex(), '=', accountId)
      .where('id', 'in', ids)
      .where('deleted_at', 'is', null)
      .returning(['id', 'code'])
      .execute();
    // Before its tags go: an endpoint filtered by tag hears of it.
    await recordItemEvents(
      this.db,
      accountId,
      'item.deleted',
      done.map((r) => r.id),
    );
    // A deleted code leaves its tags: it is in no list, so it must count in none. Nor is it
    // among the top codes, which are walked from its scan total.
    await this.tags.removeAllOf(done.map((r) => r.id));
    if (done.length > 0)
      await this.db.kysely
        .deleteFrom('item_scan_totals')
        .where(
          'item_id',
          'in',
          done.map((r) => r.id),
        )
        .execute();
    await this.changeLiveCount(accountId, -done.length);
    return done;
  }

  /**
   * Pauses or resumes the account's live items among `ids` in one statement; answers every
   * one found (also those already in that state), so the caller can tell found from missing.
   */
  async setActiveMany(accountId: string, ids: readonly string[], active: boolean): Promise<ItemRef[]> {
    if (ids.length === 0) return [];
    if (!this.db.kysely.isTransaction) {
      await betweenSlices(this.db);
      return inTransaction(this.db, (tx) => new QrItemsRepository(tx).setActiveMany(accountId, ids, active));
    }
    // Those that change state (not those already paused or running) are told to webhooks.
    const changing = await this.db.kysely
      .updateTable('qr_items')
      .set({ active: this.db.codec.bool(active), updated_at: this.db.codec.time(new Date().toISOString()) })
      .where(this.accountNotByIndex(), '=', accountId)
      .where('id', 'in', ids)
      .where('deleted_at', 'is', null)
      .where('active', '=', this.db.codec.bool(!active))
      .returning(['id'])
      .execute();
    await recordItemEvents(
      this.db,
      accountId,
      active ? 'item.resumed' : 'item.paused',
      changing.map((r) => r.id),
    );
    return this.db.kysely
      .selectFrom('qr_items')
      .select(['id', 'code'])
      .where(this.accountNotByIndex(), '=', accountId)
      .where('id', 'in', ids)
      .where('deleted_at', 'is', null)
      .execute();
  }

  /**
   * What a short link needs of its code, read when the code is not in the process's cache. On
   * PostgreSQL a named statement: prepared once per connection, it skips planning a query over
   * qr_items and its dozen indexes at each miss (measured at 100,000 codes, 50 lookups in
   * flight: 100 µs of PostgreSQL's CPU a lookup unnamed, 30-35 named; the process's own
   * 77 → 40-45 µs). On both, the query is built once (on SQLite, 23 µs a lookup of which
   * building it took 8). On PostgreSQL it reads on the pool, outside any transaction this
   * repository was given: only the short links' resolvers, which hold none, call it.
   */
  async findByCode(code: string): Promise<ShortLinkTarget | null> {
    // Built once: the same text every time, as a named statement must be ($1 or ? the code).
    this.shortLinkCompiled ??= shortLinkQuery(this.db, '').compile();
    const compiled = this.shortLinkCompiled;
    const pool = this.db.pool;
    const row = pool
      ? (await pool.query<ShortLinkRow>({ name: 'qrtrack_find_by_code', text: compiled.sql, values: [code] })).rows[0]
      : (await this.db.kysely.executeQuery<ShortLinkRow>({ ...compiled, parameters: [code] })).rows[0];
    if (!row) return null;
    const activatesAt = row.activates_at === null ? null : readTime(row.activates_at);
    const expiresAt = row.expires_at === null ? null : readTime(row.expires_at);
    const routing = row.routing_json === null ? null : routingFromJson(row.routing_json);
    // Strings counted at two bytes a character (V8 keeps non-Latin-1 text so), plus the object's fields.
    const strings = row.title.length + (row.heading?.length ?? 0) + row.payload.length + (row.password_hash?.length ?? 0);
    return {
      id: row.id,
      accountId: row.account_id,
      title: row.title,
      heading: row.heading,
      code: row.code,
      contentType: row.content_type as ContentType,
      payload: row.payload,
      active: readBool(row.active),
      deleted: row.deleted_at !== null,
      activatesAt,
      expiresAt,
      opensMs: activatesAt === null ? null : Date.parse(activatesAt),
      endsMs: expiresAt === null ? null : Date.parse(expiresAt),
      maxScans: row.max_scans === null ? null : Number(row.max_scans),
      scanCapBasis: row.cap_basis as ScanCapBasis,
      routing: routing === null ? DEFAULT_COMPILED_ROUTING : compileRouting(routing),
      passwordHash: row.password_hash,
      domainId: row.domain_id,
      approxBytes: 600 + 2 * strings + (routing === null ? 0 : routingBytes(routing, (row.routing_json as string).length)),
    };
  }

  /** Keeps the account's count of live codes (read by the overview) in the transaction that changes them. */
  private async changeLiveCount(accountId: string, change: number): Promise<void> {
    if (change === 0) return;
    await this.db.kysely
      .updateTable('accounts')
      .set((eb) => ({ live_codes: eb('live_codes', '+', change) }))
      .where('id', '=', accountId)
      .execute();
  }

  /**
   * account_id for SQLite not to choose an index by (a unary +): with ten ids or more it walked
   * the account's list index instead of a primary-key lookup an id (docs/performance.md, F4).
   */
  private accountNotByIndex() {
    return this.db.codec.dialect === 'sqlite' ? sql<string>`+account_id` : sql<string>`account_id`;
  }

  private live(accountId: string) {
    return this.db.kysely.selectFrom('qr_items').where('account_id', '=', accountId).where('deleted_at', 'is', null);
  }

  // A batch stored all or nothing in short transactions (docs/big-accounts.md). On SQLite one
  // transaction of a thousand rows held the one writer, and the thread that answers the short
  // links (where the scan writer commits), 30-90 ms; a turn of the event loop inside a write
  // transaction would let the scan writer write into it. So the rows are written first as
  // deleted ones (deleted_at = UNPUBLISHED), in transactions of about STAGE_SLICE.targetMs with a
  // turn between, and made live together in the caller's one short transaction. Until then they
  // are in no list, count, search or tag, and their short links answer as deleted codes do; rows
  // a failed (or killed) batch leaves stay that way. On PostgreSQL, whose statements do not hold
  // the event loop, the rows go in with the publishing transaction; they are built before it,
  // a few milliseconds at a time, as the answer is (building a thousand in the transaction held
  // the short links' thread for tens of milliseconds, docs/performance.md).

  /** Builds a batch's rows between turns and writes them hidden (SQLite); nothing is stored on PostgreSQL until publishStaged. */
  async stageMany(accountId: string, contents: readonly NewQrItemContent[]): Promise<StagedBatch> {
    if (this.db.kysely.isTransaction) throw new Error('stageMany: writes in transactions of its own, not inside one');
    const written = this.db.codec.dialect === 'sqlite';
    const hidden = this.db.codec.time(UNPUBLISHED);
    const turn = turnTaker(Number.POSITIVE_INFINITY, TURN_EVERY_MS / 2);
    const rows: StagedRow[] = [];
    for (const content of contents) {
      rows.push(written ? { ...this.newRow(accountId, content), deleted_at: hidden } : this.newRow(accountId, content));
      await turn();
    }
    if (!written) return { accountId, contents, rows, written };
    let pending = rows;
    let size: number = STAGE_SLICE.first;
    for (let attempt = 1; pending.length > 0; attempt++) {
      if (attempt > CODE_ATTEMPTS) throw new Error('create: no free short code found');
      const stored = new Set<string>();
      for (let i = 0; i < pending.length; i += size) {
        const slice = pending.slice(i, i + size);
        const started = performance.now();
        for (const id of await inTransaction(this.db, (tx) => new QrItemsRepository(tx).insertRows(accountId, slice))) stored.add(id);
        const tookMs = Math.max(performance.now() - started, 0.1);
        size = Math.round(Math.min(STAGE_SLICE.max, size * 2, Math.max(STAGE_SLICE.min, (slice.length * STAGE_SLICE.targetMs) / tookMs)));
        await betweenSlices(this.db);
      }
      pending = pending.filter((r) => !stored.has(r.id));
      for (const r of pending) r.code = generateShortCode();
    }
    return { accountId, contents, rows, written };
  }

  /**
   * Makes a staged batch live, in the caller's transaction: counts it against `maxCodes`, shows
   * its rows (on PostgreSQL: writes them) and writes their tags. Answers the records in the order
   * staged: `records` when given (stagedRecords' answer, made before the transaction), unless a
   * code had to be drawn again.
   */
  async publishStaged(staged: StagedBatch, maxCodes = Number.POSITIVE_INFINITY, records?: QrItemRecord[]): Promise<QrItemRecord[]> {
    const { accountId, rows } = staged;
    if (!this.db.kysely.isTransaction) throw new Error("publishStaged: runs inside the caller's transaction");
    await this.addToCodeCount(accountId, rows.length, maxCodes);
    const codes = rows.map((r) => r.code);
    if (staged.written) await this.showStaged(rows);
    else await this.storeRows(accountId, rows);
    const redrawn = rows.some((r, i) => r.code !== codes[i]);
    const answer = records !== undefined && !redrawn ? records : await this.stagedRecords(staged);
    await this.tags.add(accountId, answer);
    // Told to webhooks in the publishing transaction, as createMany does.
    await recordItemEvents(
      this.db,
      accountId,
      'item.created',
      answer.map((r) => r.id),
    );
    return answer;
  }

  /** Shows rows written hidden (SQLite). */
  private async showStaged(rows: readonly StagedRow[]): Promise<void> {
    const hidden = this.db.codec.time(UNPUBLISHED);
    let shown = 0;
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      const res = await this.db.kysely
        .updateTable('qr_items')
        .set({ deleted_at: null })
        .where(
          'id',
          'in',
          rows.slice(i, i + INSERT_CHUNK).map((r) => r.id),
        )
        .where('deleted_at', '=', hidden)
        .executeTakeFirst();
      shown += Number(res.numUpdatedRows);
    }
    if (shown !== rows.length) throw new Error(`publishStaged: ${rows.length - shown} staged rows are gone`);
  }

  /** Inserts rows built ahead (PostgreSQL), drawing a code again for any already taken. */
  private async storeRows(accountId: string, rows: StagedRow[]): Promise<void> {
    let pending = rows;
    for (let attempt = 1; pending.length > 0; attempt++) {
      if (attempt > CODE_ATTEMPTS) throw new Error('create: no free short code found');
      const stored = new Set<string>();
      for (let i = 0; i < pending.length; i += INSERT_CHUNK_POSTGRES)
        for (const id of await this.insertRows(accountId, pending.slice(i, i + INSERT_CHUNK_POSTGRES))) stored.add(id);
      pending = pending.filter((r) => !stored.has(r.id));
      for (const r of pending) r.code = generateShortCode();
    }
  }

  /** The records publishStaged answers, in the order staged, made a few milliseconds at a time. */
  async stagedRecords(staged: StagedBatch): Promise<QrItemRecord[]> {
    const turn = turnTaker(Number.POSITIVE_INFINITY, TURN_EVERY_MS / 2);
    const records: QrItemRecord[] = [];
    for (const [i, r] of staged.rows.entries()) {
      records.push({
        ...toRecord({ ...r, deleted_at: null, created_at: readTime(r.created_at), updated_at: readTime(r.updated_at) }),
        tags: staged.contents[i]?.tags ?? [],
      });
      await turn();
    }
    return records;
  }

  /** Deletes the rows of a staged batch that were not published (after a failure; a no-op after success). */
  async discardStaged(staged: StagedBatch): Promise<void> {
    if (!staged.written) return;
    const hidden = this.db.codec.time(UNPUBLISHED);
    for (let i = 0; i < staged.rows.length; i += STAGE_SLICE.max / 5) {
      const ids = staged.rows.slice(i, i + STAGE_SLICE.max / 5).map((r) => r.id);
      await this.db.kysely.deleteFrom('qr_items').where('id', 'in', ids).where('deleted_at', '=', hidden).execute();
      await betweenSlices(this.db);
    }
  }
}

type StagedRow = Insertable<QrItemsTable> & ItemRow;

/** A batch's rows built by stageMany: written hidden on SQLite, not written yet on PostgreSQL. */
export interface StagedBatch {
  readonly accountId: string;
  readonly contents: readonly NewQrItemContent[];
  readonly rows: StagedRow[];
  readonly written: boolean;
}

/** deleted_at of a staged row not yet published: before any real deletion. */
const UNPUBLISHED = '1970-01-01T00:00:00.000Z';
/** Rows per staging transaction: sized by the clock to about targetMs, as an import's are. */
const STAGE_SLICE = { first: 25, min: 5, max: 500, targetMs: 4 };

/** The first rows whose designs fit LIST_PAGE_DESIGN_BYTES together; at least one. */
function cutByDesignBytes(rows: readonly ListRow[]): ListRow[] {
  let bytes = 0;
  for (let i = 0; i < rows.length; i++) {
    bytes += Number((rows[i] as ListRow).design_bytes);
    if (bytes > LIST_PAGE_DESIGN_BYTES && i > 0) return rows.slice(0, i);
  }
  return [...rows];
}

function shortLinkQuery(db: Db, code: string) {
  return db.kysely
    .selectFrom('qr_items')
    .select([
      'id',
      'account_id',
      'title',
      'heading',
      'code',
      'content_type',
      'payload',
      'active',
      'deleted_at',
      'activates_at',
      'expires_at',
      'max_scans',
      'cap_basis',
      'routing_json',
      'password_hash',
      'domain_id',
    ])
    .where('code', '=', code);
}

type ShortLinkRow = NonNullable<Awaited<ReturnType<ReturnType<typeof shortLinkQuery>['executeTakeFirst']>>>;
