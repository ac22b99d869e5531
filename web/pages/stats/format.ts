// Numbers and names as the reader's browser writes them.
const numbers = new Intl.NumberFormat();
export const formatCount = (n: number): string => numbers.format(n);

let regions: Intl.DisplayNames | null = null;
/** 'DE' → 'Germany' in the browser's language; our 'unknown' stays readable. */
export function countryName(alpha2: string): string {
  if (alpha2 === 'unknown') return 'Unknown';
  try {
    regions ??= new Intl.DisplayNames(undefined, { type: 'region' });
    return regions.of(alpha2) ?? alpha2;
  } catch {
    return alpha2;
  }
}

const dayFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
/** '2026-11-23' → 'Nov 23' (the date is already local to the chosen zone: shown as is). */
export function shortDate(date: string): string {
  return dayFormat.format(new Date(`${date}T00:00:00Z`));
}
