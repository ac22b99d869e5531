// Export of an account's codes as CSV or JSON, produced page by page along the same indexes
// as the list (pages sized to a few milliseconds: paged-read.ts; fewer codes when their designs
// carry large logos: see LIST_PAGE_DESIGN_BYTES), so memory stays flat at a million codes, the
// first bytes leave before the last page is read, and the short links get a turn every few ms.
// On a SQLite file the server reads and formats the pages in its read workers instead
// (exportPage, exportCodesByPage; src/read-pool/), and this thread only passes the text on.
import { stringify } from 'csv-stringify/sync';
import { guardFormula } from './csv-formulas.ts';
import type { Db } from '../db/database.ts';
import { type ListQuery, QrItemsRepository } from '../db/qr-items/qr-items-repository.ts';
import type { ListCursor } from '../domain/qr-items/list-cursor.ts';
import { turnTaker } from '../event-loop-turns.ts';
import { PAGE_TARGET_MS, readPage, readPages } from './paged-read.ts';
import { type QrItemRecord, toView } from '../domain/qr-items/qr-item.ts';
import { TAG_SEPARATOR } from '../domain/qr-items/tags.ts';
import { type LinkAddressTable, type LinkAddresses, linkAddressesFrom } from '../domain/qr-items/short-code.ts';

export type ExportFormat = 'csv' | 'json';
export type ExportFilter = Omit<ListQuery, 'limit' | 'cursor'>;

/**
 * The CSV columns. An exported file imports again as is: the columns that describe a
 * stored code (id, code, shortUrl, scan totals, times) are read-only and skipped on import.
 */
export const EXPORT_COLUMNS = [
  'id',
  'code',
  'shortUrl',
  'title',
  'contentType',
  'payload',
  'active',
  'tags',
  'scanCount',
  'createdAt',
  'updatedAt',
  'design',
  'status',
  'activatesAt',
  'expiresAt',
  'maxScans',
  'scanCapBasis',
  'fallbackUrls',
  'rules',
  'forwardQuery',
  'utm',
  'hasPassword',
  'heading',
] as const;

/** Yields the file in pieces; `onProgress` hears the number of codes written so far after each page. */
export async function* exportCodes(
  db: Db,
  accountId: string,
  filter: ExportFilter,
  format: ExportFormat,
  /** Where the codes' short links live (Addresses.table()). */
  links: LinkAddressTable,
  onProgress?: (exported: number) => void,
): AsyncGenerator<string> {
  const addresses = linkAddressesFrom(links);
  yield fileHead(format);
  let first = true;
  let exported = 0;
  // Writing a page out costs about what reading it did: it is cut into pieces too.
  const turn = turnTaker(Number.POSITIVE_INFINITY, PAGE_TARGET_MS);
  for await (const items of readPages(db, accountId, filter)) {
    let piece: string[] = [];
    for (const item of items) {
      piece.push(formatItem(item, format, addresses, first));
      first = false;
      // A piece is handed on at each turn, so memory holds a piece, not the page.
      if (await turn()) {
        yield piece.join('');
        piece = [];
      }
    }
    if (piece.length > 0) yield piece.join('');
    exported += items.length;
    onProgress?.(exported);
  }
  if (format === 'json') yield JSON_TAIL;
}

/** Which page of an export to read: up to `size` codes after `after` (null: from the newest). */
export interface ExportPageQuery {
  accountId: string;
  filter: ExportFilter;
  format: ExportFormat;
  links: LinkAddressTable;
  after: ListCursor | null;
  size: number;
  /** No code has been written before this page (JSON separates codes by commas). */
  first: boolean;
  /** The time codes' statuses are computed for (default: now). */
  now?: number;
}

/** A page of the file, formatted, and where the next one starts (null: this was the last). */
export interface ExportPage {
  text: string;
  count: number;
  after: ListCursor | null;
}

/** One page of an export, read and formatted in one go: the read workers' share of an export (src/read-pool/). */
export async function exportPage(db: Db, q: ExportPageQuery): Promise<ExportPage> {
  const { items, after } = await readPage(new QrItemsRepository(db), q.accountId, q.filter, q.after, q.size);
  const addresses = linkAddressesFrom(q.links);
  const text = items.map((item, i) => formatItem(item, q.format, addresses, q.first && i === 0, q.now)).join('');
  return { text, count: items.length, after };
}

/**
 * The file from pages read elsewhere (a read worker): `first` already read, `next` reads the
 * one after a cursor. The thread answering short links only passes the text on.
 */
export async function* exportCodesByPage(
  format: ExportFormat,
  first: ExportPage,
  next: (after: ListCursor, first: boolean) => Promise<ExportPage>,
): AsyncGenerator<string> {
  yield fileHead(format);
  let page = first;
  let written = 0;
  for (;;) {
    if (page.text !== '') yield page.text;
    written += page.count;
    if (page.after === null) break;
    page = await next(page.after, written === 0);
  }
  if (format === 'json') yield JSON_TAIL;
}

function fileHead(format: ExportFormat): string {
  return format === 'csv' ? stringify([[...EXPORT_COLUMNS]]) : '{"items":[';
}

const JSON_TAIL = ']}\n';

function formatItem(item: QrItemRecord, format: ExportFormat, addresses: LinkAddresses, first: boolean, now = Date.now()): string {
  if (format === 'csv') return stringify([csvRow(item, addresses, now)]);
  return (first ? '' : ',') + JSON.stringify(toView(item, addresses, now));
}

function csvRow(item: QrItemRecord, addresses: LinkAddresses, now: number): string[] {
  const v = toView(item, addresses, now);
  const cells = [
    v.id,
    v.code,
    v.shortUrl,
    v.title,
    v.contentType,
    v.payload,
    String(v.active),
    v.tags.join(TAG_SEPARATOR),
    String(v.scanCount),
    v.createdAt,
    v.updatedAt,
    JSON.stringify(v.design),
    v.status,
    v.activatesAt ?? '',
    v.expiresAt ?? '',
    v.maxScans === null ? '' : String(v.maxScans),
    v.scanCapBasis,
    // Empty when unset, so a file of plain codes stays plain (and imports again as is).
    Object.keys(v.fallbackUrls).length > 0 ? JSON.stringify(v.fallbackUrls) : '',
    v.rules.length > 0 ? JSON.stringify(v.rules) : '',
    String(v.forwardQuery),
    Object.keys(v.utm).length > 0 ? JSON.stringify(v.utm) : '',
    String(v.hasPassword),
    v.heading ?? '',
  ];
  return cells.map(guardFormula);
}
