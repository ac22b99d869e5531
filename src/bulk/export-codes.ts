// Export of an account's codes as CSV or JSON, produced page by page along the same indexes
// as the list (pages sized to a few milliseconds: paged-read.ts; fewer codes when their designs
// carry large logos: see LIST_PAGE_DESIGN_BYTES), so memory stays flat at a million codes, the
// first bytes leave before the last page is read, and the short links get a turn every few ms.
import { stringify } from 'csv-stringify/sync';
import { guardFormula } from './csv-formulas.ts';
import type { Db } from '../db/database.ts';
import type { ListQuery } from '../db/qr-items/qr-items-repository.ts';
import { turnTaker } from '../event-loop-turns.ts';
import { PAGE_TARGET_MS, readPages } from './paged-read.ts';
import { type QrItemRecord, toView } from '../domain/qr-items/qr-item.ts';
import { TAG_SEPARATOR } from '../domain/qr-items/tags.ts';

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
] as const;

/** Yields the file in pieces; `onProgress` hears the number of codes written so far after each page. */
export async function* exportCodes(
  db: Db,
  accountId: string,
  filter: ExportFilter,
  format: ExportFormat,
  publicBaseUrl: string,
  onProgress?: (exported: number) => void,
): AsyncGenerator<string> {
  if (format === 'csv') yield stringify([[...EXPORT_COLUMNS]]);
  else yield '{"items":[';
  let first = true;
  let exported = 0;
  // Writing a page out costs about what reading it did: it is cut into pieces too.
  const turn = turnTaker(Number.POSITIVE_INFINITY, PAGE_TARGET_MS);
  for await (const items of readPages(db, accountId, filter)) {
    let piece: string[] = [];
    for (const item of items) {
      if (format === 'csv') piece.push(stringify([csvRow(item, publicBaseUrl)]));
      else piece.push((first ? '' : ',') + JSON.stringify(toView(item, publicBaseUrl)));
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
  if (format === 'json') yield ']}\n';
}

function csvRow(item: QrItemRecord, publicBaseUrl: string): string[] {
  const v = toView(item, publicBaseUrl);
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
  ];
  return cells.map(guardFormula);
}
