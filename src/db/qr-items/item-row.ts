// The stored columns of a QR item and how a row becomes a record; shared by the repository
// and the list planner.
import type { Selectable } from 'kysely';
import { resolveDesign } from '../../domain/design/design.ts';
import type { ContentType, TypedFields } from '../../domain/payload/index.ts';
import type { QrItemRecord } from '../../domain/qr-items/qr-item.ts';
import { type ScanCapBasis, routingFromJson } from '../../domain/dynamic/dynamic-settings.ts';
import { readBool, readTime } from '../codec.ts';
import type { QrItemsTable } from '../schema.ts';

/** Every column but the folded search copies, which only queries need. */
export const ITEM_COLUMNS = [
  'id',
  'account_id',
  'code',
  'title',
  'heading',
  'content_type',
  'payload',
  'fields_json',
  'design_json',
  'active',
  'scan_count',
  'unique_scan_count',
  'bot_scan_count',
  'first_scan_at',
  'last_scan_at',
  'created_at',
  'updated_at',
  'deleted_at',
  'activates_at',
  'expires_at',
  'max_scans',
  'cap_basis',
  'cap_count',
  'routing_json',
  'password_hash',
  'domain_id',
] as const satisfies readonly (keyof QrItemsTable)[];
export type ItemRow = Pick<Selectable<QrItemsTable>, (typeof ITEM_COLUMNS)[number]>;

export function toRecord(row: ItemRow): QrItemRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    code: row.code,
    title: row.title,
    heading: row.heading,
    contentType: row.content_type as ContentType,
    payload: row.payload,
    fields: JSON.parse(row.fields_json) as TypedFields,
    design: resolveDesign(JSON.parse(row.design_json)),
    active: readBool(row.active),
    scanCount: Number(row.scan_count),
    createdAt: readTime(row.created_at),
    updatedAt: readTime(row.updated_at),
    tags: [],
    activatesAt: row.activates_at === null ? null : readTime(row.activates_at),
    expiresAt: row.expires_at === null ? null : readTime(row.expires_at),
    maxScans: row.max_scans === null ? null : Number(row.max_scans),
    scanCapBasis: row.cap_basis as ScanCapBasis,
    capCount: Number(row.cap_count),
    ...routingFromJson(row.routing_json),
    hasPassword: row.password_hash !== null,
    domainId: row.domain_id,
  };
}
