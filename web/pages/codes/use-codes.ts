// The list's data: pages of codes with their sparklines (one request a page), loaded again
// when the filters change; an answer to filters no longer shown is dropped.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type CodesFilter, type QrItem, api } from '../../api.ts';
import { readPastEmptyPages } from './read-pages.ts';

export const PAGE_SIZE = 50;

export interface CodesState {
  items: QrItem[] | null;
  /** 14 days of scans per code id, oldest first. */
  sparks: Map<string, number[]>;
  days: { from: string; to: string } | null;
  cursor: string | null;
  error: string | null;
  busy: boolean;
}

const browserZone = (): string => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
};

/** Empty pages read on from before "no match" is shown (each up to 100,000 codes searched). */
const SEARCH_FOLLOWS = 9;

export function useCodes(filter: CodesFilter) {
  const [state, setState] = useState<CodesState>({ items: null, sparks: new Map(), days: null, cursor: null, error: null, busy: true });
  const generation = useRef(0);
  const key = JSON.stringify(filter);

  const load = async (cursor: string | null) => {
    const mine = cursor === null ? ++generation.current : generation.current;
    setState((s) => ({ ...s, busy: true, error: null }));
    try {
      const read = (from: string | null) =>
        api.listCodes({ ...filter, limit: PAGE_SIZE, cursor: from ?? undefined, include: 'sparkline', tz: browserZone() });
      const page = await readPastEmptyPages(read, cursor, SEARCH_FOLLOWS, () => mine === generation.current);
      if (page === null) return;
      setState((s) => {
        const sparks = new Map(cursor === null ? [] : s.sparks);
        for (const line of page.sparklines?.series ?? []) sparks.set(line.id, line.scans);
        return {
          items: cursor === null || s.items === null ? page.items : [...s.items, ...page.items],
          sparks,
          days: page.sparklines ? { from: page.sparklines.from, to: page.sparklines.to } : s.days,
          cursor: page.nextCursor,
          error: null,
          busy: false,
        };
      });
    } catch (err) {
      if (mine !== generation.current) return;
      setState((s) => ({ ...s, busy: false, error: err instanceof ApiError ? err.message : 'The codes could not be loaded.' }));
    }
  };

  useEffect(() => void load(null), [key]);

  return {
    ...state,
    more: () => (state.cursor ? load(state.cursor) : Promise.resolve()),
    reload: () => load(null),
    /** Applies a change the server confirmed, without reading the list again. */
    patch: (update: (items: QrItem[]) => QrItem[]) => setState((s) => ({ ...s, items: s.items === null ? null : update(s.items) })),
  };
}
