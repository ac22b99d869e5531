import { describe, expect, it } from 'vitest';
import { readPastEmptyPages } from '../../web/pages/codes/read-pages.ts';

/** Pages of a list where only the codes at the given positions match, `window` codes read a page. */
function search(matches: number[], total: number, window: number) {
  const reads: (string | null)[] = [];
  const read = async (cursor: string | null) => {
    reads.push(cursor);
    const from = cursor === null ? 0 : Number(cursor);
    const to = Math.min(total, from + window);
    return { items: matches.filter((m) => m >= from && m < to), nextCursor: to < total ? String(to) : null };
  };
  return { read, reads };
}

describe('readPastEmptyPages', () => {
  it('reads on through empty pages with a cursor until one holds codes', async () => {
    const s = search([250], 1_000, 100);
    const page = await readPastEmptyPages(s.read, null, 9, () => true);
    expect(page).toEqual({ items: [250], nextCursor: '300' });
    expect(s.reads).toEqual([null, '100', '200']);
  });

  it('stops after `follows` more pages, keeping the cursor for a later "Search further"', async () => {
    const s = search([], 10_000, 100);
    const page = await readPastEmptyPages(s.read, null, 3, () => true);
    expect(page).toEqual({ items: [], nextCursor: '400' });
    expect(s.reads).toHaveLength(4);
  });

  it('answers an empty last page as it is, and a full first page without reading on', async () => {
    expect(await readPastEmptyPages(search([], 250, 100).read, null, 9, () => true)).toEqual({ items: [], nextCursor: null });
    const s = search([5, 6], 1_000, 100);
    expect((await readPastEmptyPages(s.read, null, 9, () => true))?.items).toEqual([5, 6]);
    expect(s.reads).toEqual([null]);
  });

  it('gives up when a newer search began meanwhile', async () => {
    let current = true;
    const s = search([], 1_000, 100);
    const slow = async (cursor: string | null) => {
      const page = await s.read(cursor);
      current = false;
      return page;
    };
    expect(await readPastEmptyPages(slow, null, 9, () => current)).toBeNull();
    expect(s.reads).toEqual([null]);
  });
});
