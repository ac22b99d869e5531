// Reads an account's codes along the list's indexes in pages sized by the clock: each page is
// read (and then written out by the caller) in one stretch of the thread that answers the short
// links, so a page is made as large as fits a few milliseconds on this machine now, with a turn
// of the event loop between pages; fixed pages held it far too long
// (docs/decisions/bulk-work-and-quotas.md).
import { setImmediate as nextTurn } from 'node:timers/promises';
import { type ListQuery, QrItemsRepository } from '../db/qr-items/qr-items-repository.ts';
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
  let cursor: ListQuery['cursor'];
  for (;;) {
    const started = performance.now();
    const page = await repo.list(accountId, { ...filter, limit: size, cursor });
    const tookMs = Math.max(performance.now() - started, 0.1);
    if (page.items.length > 0) yield page.items;
    const last = page.items.at(-1);
    const after = page.resumeAfter ?? (last ? { createdAt: last.createdAt, id: last.id } : undefined);
    if (!page.more || !after) return;
    cursor = after;
    size = Math.round(Math.min(maxPage, size * 2, Math.max(PAGE_SIZES.min, (size * PAGE_TARGET_MS) / tookMs)));
    await nextTurn();
  }
}
