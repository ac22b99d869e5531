// Reads an account's codes along the list's indexes in pages sized by the clock: each page is
// read (and then written out by the caller) in one stretch of the thread that answers the short
// links, so a page is made as large as fits a few milliseconds on this machine now, with a turn
// of the event loop between pages; fixed pages held it far too long
// (docs/decisions/bulk-work-and-quotas.md).
import { setImmediate as nextTurn } from 'node:timers/promises';
import { QrItemsRepository } from '../db/qr-items/qr-items-repository.ts';
import type { ListCursor } from '../domain/qr-items/list-cursor.ts';
import type { Db } from '../db/database.ts';
import type { QrItemRecord } from '../domain/qr-items/qr-item.ts';
import type { ExportFilter } from './export-codes.ts';

/** Time a page's read may take; its writing-out takes about as long again. */
export const PAGE_TARGET_MS = 5;
export const PAGE_SIZES = { first: 50, min: 10, max: 1_000 } as const;

/**
 * Yields the filter's codes a page at a time, newest first, with a turn between pages; the next
 * page's size follows the time the last one took (at most doubling, so a quick page cannot make
 * the next one huge).
 */
export async function* readPages(
  db: Db,
  accountId: string,
  filter: ExportFilter,
  maxPage: number = PAGE_SIZES.max,
): AsyncGenerator<QrItemRecord[]> {
  const repo = new QrItemsRepository(db);
  let size: number = Math.min(PAGE_SIZES.first, maxPage);
  let cursor: ListCursor | null = null;
  for (;;) {
    const started = performance.now();
    const page = await readPage(repo, accountId, filter, cursor, size);
    const tookMs = Math.max(performance.now() - started, 0.1);
    if (page.items.length > 0) yield page.items;
    if (page.after === null) return;
    cursor = page.after;
    size = Math.round(Math.min(maxPage, size * 2, Math.max(PAGE_SIZES.min, (size * PAGE_TARGET_MS) / tookMs)));
    await nextTurn();
  }
}

/** Up to `size` of the filter's codes after `cursor` (newest first), and the cursor after them (null: none left). */
export async function readPage(
  repo: QrItemsRepository,
  accountId: string,
  filter: ExportFilter,
  cursor: ListCursor | null,
  size: number,
): Promise<{ items: QrItemRecord[]; after: ListCursor | null }> {
  const page = await repo.list(accountId, { ...filter, limit: size, cursor: cursor ?? undefined });
  return { items: page.items, after: pageAfter(page) };
}

/** Where the list goes on after a page (null: no codes after it). */
export function pageAfter(page: {
  items: readonly QrItemRecord[];
  more: boolean;
  resumeAfter?: ListCursor | undefined;
}): ListCursor | null {
  const last = page.items.at(-1);
  const after = page.resumeAfter ?? (last ? { createdAt: last.createdAt, id: last.id } : undefined);
  return page.more && after ? after : null;
}
