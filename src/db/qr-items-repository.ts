// QR items. Every query is scoped by account: another account's item is simply not found.
import { randomUUID } from 'node:crypto';
import { type Selectable, type Updateable, sql } from 'kysely';
import { resolveDesign } from '../domain/design.ts';
import type { ContentType, TypedFields } from '../domain/payload.ts';
import type { NewQrItemContent, QrItemChanges, QrItemRecord } from '../domain/qr-item.ts';
import { generateShortCode } from '../domain/short-code.ts';
import { isUniqueViolation, readBool, readTime } from './codec.ts';
import type { Db } from './database.ts';
import type { QrItemsTable } from './schema.ts';

export interface ListQuery {
  limit: number;
  cursor?: { createdAt: string; id: string };
  active?: boolean;
  contentType?: ContentType;
  q?: string;
}

/** What the short link needs to answer, looked up by code (deleted items included: they answer 410). */
export type ShortLinkTarget = Pick<QrItemRecord, 'id' | 'title' | 'code' | 'contentType' | 'payload' | 'active'> & { deleted: boolean };

const CODE_ATTEMPTS = 8;

let lastCreatedMs = 0;
/** Creation times strictly increase within a process, so "newest first" is the order of creation. */
function creationTime(): string {
  lastCreatedMs = Math.max(Date.now(), lastCreatedMs + 1);
  return new Date(lastCreatedMs).toISOString();
}

export class QrItemsRepository {
  constructor(private readonly db: Db) {}

  async create(accountId: string, content: NewQrItemContent): Promise<QrItemRecord> {
    const now = creationTime();
    const t = this.db.codec.time(now);
    for (let attempt = 1; ; attempt++) {
      const row = {
        id: randomUUID(),
        account_id: accountId,
        code: generateShortCode(),
        title: content.title,
        content_type: content.contentType,
        payload: content.payload,
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
      try {
        await this.db.kysely.insertInto('qr_items').values(row).execute();
        return toRecord({ ...row, created_at: now, updated_at: now });
      } catch (err) {
        // A code collision (one in trillions) gets a fresh code; anything else is real.
        if (!isUniqueViolation(err) || attempt >= CODE_ATTEMPTS) throw err;
      }
    }
  }

  async find(accountId: string, id: string): Promise<QrItemRecord | null> {
    const row = await this.live(accountId).where('id', '=', id).selectAll().executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async list(accountId: string, query: ListQuery): Promise<{ items: QrItemRecord[]; more: boolean }> {
    let q = this.live(accountId).selectAll();
    if (query.active !== undefined) q = q.where('active', '=', this.db.codec.bool(query.active));
    if (query.contentType !== undefined) q = q.where('content_type', '=', query.contentType);
    if (query.q !== undefined && query.q !== '') {
      const pattern = '%' + query.q.toLowerCase().replace(/[\\%_]/g, (c) => '\\' + c) + '%';
      q = q.where((eb) =>
        eb.or([
          eb(sql`lower(title)`, 'like', sql`${pattern} escape '\\'`),
          eb(sql`lower(payload)`, 'like', sql`${pattern} escape '\\'`),
        ]),
      );
    }
    const cursor = query.cursor;
    if (cursor) {
      const at = this.db.codec.time(cursor.createdAt);
      q = q.where((eb) => eb.or([eb('created_at', '<', at), eb.and([eb('created_at', '=', at), eb('id', '<', cursor.id)])]));
    }
    const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.limit + 1).execute();
    return { items: rows.slice(0, query.limit).map(toRecord), more: rows.length > query.limit };
  }

  async update(accountId: string, id: string, changes: QrItemChanges): Promise<QrItemRecord | null> {
    const set: Updateable<QrItemsTable> = { updated_at: this.db.codec.time(new Date().toISOString()) };
    if (changes.title !== undefined) set.title = changes.title;
    if (changes.contentType !== undefined) set.content_type = changes.contentType;
    if (changes.payload !== undefined) set.payload = changes.payload;
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
    return this.find(accountId, id);
  }

  /** Marks the item deleted; the row stays so its code is never handed out again. */
  async softDelete(accountId: string, id: string): Promise<boolean> {
    const now = this.db.codec.time(new Date().toISOString());
    const res = await this.db.kysely
      .updateTable('qr_items')
      .set({ deleted_at: now, updated_at: now, active: this.db.codec.bool(false) })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  async findByCode(code: string): Promise<ShortLinkTarget | null> {
    const row = await this.db.kysely
      .selectFrom('qr_items')
      .select(['id', 'title', 'code', 'content_type', 'payload', 'active', 'deleted_at'])
      .where('code', '=', code)
      .executeTakeFirst();
    if (!row) return null;
    return {
      id: row.id,
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

function toRecord(row: Selectable<QrItemsTable>): QrItemRecord {
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
  };
}
