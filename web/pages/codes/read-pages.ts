// A search without three letters or digits in a row has no index: the server reads 100,000
// codes a page and may answer a page with no codes but a cursor to read on from. The list
// reads on through such empty pages (a few, not without end) before it shows "no match".

/** A page of a cursor-paged list. */
export interface CursorPage {
  items: readonly unknown[];
  nextCursor: string | null;
}

/**
 * Reads the page at `cursor`, then, while a page is empty but has a cursor, the next one, at
 * most `follows` more times. Null when `wanted()` turns false meanwhile (a newer search began).
 */
export async function readPastEmptyPages<P extends CursorPage>(
  read: (cursor: string | null) => Promise<P>,
  cursor: string | null,
  follows: number,
  wanted: () => boolean,
): Promise<P | null> {
  let page = await read(cursor);
  for (let n = 0; page.items.length === 0 && page.nextCursor !== null && n < follows; n++) {
    if (!wanted()) return null;
    page = await read(page.nextCursor);
  }
  return wanted() ? page : null;
}
