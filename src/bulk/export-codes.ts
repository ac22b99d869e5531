// Export of an account's codes as CSV or JSON, produced page by page (1,000 codes at a
// time, along the same indexes as the list, and fewer when their designs carry large logos:
// see LIST_PAGE_DESIGN_BYTES), so memory stays flat at a million codes and the first bytes
// leave before the last page is read.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { stringify } from 'csv-stringify/sync';
import { guardFormula } from './csv-formulas.ts';
import type { Db } from '../db/database.ts';
import { type ListQuery, QrItemsRepository } from '../db/qr-items/qr-items-repository.ts';
import { type QrItemRecord, toView } from '../domain/qr-items/qr-item.ts';
import { TAG_SEPARATOR } from '../domain/qr-items/tags.ts';

export type ExportFormat = 'csv' | 'json';
export type ExportFilter = Omit<ListQuery, 'limit' | 'cursor'>;

const PAGE = 1_000;

/**
 * The CSV columns. An exported file imports again as is: the columns that describe a
 * stored code (id, code, shortUrl, scan totals, times) are read-only and skipped on import.
 */
export const EXPORT_COLUMNS = ['id', 'code', 'shortUrl', 'title', 'contentType', 'payload', 'active', 'tags', 'scanCount', 'createdAt', 'updatedAt', 'design'] as const;


/** Yields the file in pieces; `onProgress` hears the number of codes written so far after each page. */
export async function* exportCodes(
  db: Db,
  accountId: string,
  filter: ExportFilter,
  format: ExportFormat,
  publicBaseUrl: string,
  onProgress?: (exported: number) => void,
): AsyncGenerator<string> {
  const repo = new QrItemsRepository(db);
  if (format === 'csv') yield stringify([[...EXPORT_COLUMNS]]);
  else yield '{"items":[';
  let first = true;
  let exported = 0;
  let cursor: ListQuery['cursor'];
  for (;;) {
    const page = await repo.list(accountId, { ...filter, limit: PAGE, cursor });
    if (format === 'csv') {
      if (page.items.length > 0) yield stringify(page.items.map((item) => csvRow(item, publicBaseUrl)));
    } else {
      for (const item of page.items) {
        yield (first ? '' : ',') + JSON.stringify(toView(item, publicBaseUrl));
        first = false;
      }
    }
    exported += page.items.length;
    onProgress?.(exported);
    const last = page.items.at(-1);
    const after = page.resumeAfter ?? (last ? { createdAt: last.createdAt, id: last.id } : undefined);
    if (!page.more || !after) break;
    cursor = after;
    // A page is read and written out in one go; between pages the short links get a turn.
    await nextTurn();
  }
  if (format === 'json') yield ']}\n';
}

function csvRow(item: QrItemRecord, publicBaseUrl: string): string[] {
  const v = toView(item, publicBaseUrl);
  const cells = [v.id, v.code, v.shortUrl, v.title, v.contentType, v.payload, String(v.active), v.tags.join(TAG_SEPARATOR), String(v.scanCount), v.createdAt, v.updatedAt, JSON.stringify(v.design)];
  return cells.map(guardFormula);
}
