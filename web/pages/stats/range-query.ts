// The dashboard's range lives in the address (?days=7), like the codes list's filters, so a
// reload, a shared link and Back show the same range. Anything but 7/14/30/90 means 30.
import { navigate, usePath, useSearch } from '../../router.ts';
import { RANGES, type Range } from './use-stats.ts';

export const DEFAULT_RANGE: Range = 30;

export function parseRange(search: string): Range {
  const days = Number(new URLSearchParams(search).get('days'));
  return RANGES.find((r) => r === days) ?? DEFAULT_RANGE;
}

/** The range of the address, and a setter that adds an address (Back returns to the range before). */
export function useRangeInAddress(): [Range, (r: Range) => void] {
  const path = usePath();
  const days = parseRange(useSearch());
  const setDays = (r: Range) => navigate(r === DEFAULT_RANGE ? path : `${path}?days=${r}`);
  return [days, setDays];
}
