// A code's lifecycle and rules as the web app reads them (issue #26): its status, said the
// same way on the codes list and the dashboard.
import { statusOf } from '../src/domain/dynamic/lifecycle.ts';
import type { CodeStatus, QrItem } from './api.ts';

export type { CodeStatus };

export type Rule = QrItem['rules'][number];

export const STATUSES: ReadonlyArray<{ value: CodeStatus; label: string }> = [
  { value: 'active', label: 'Active' },
  { value: 'paused', label: 'Paused' },
  { value: 'scheduled', label: 'Scheduled' },
  { value: 'expired', label: 'Expired' },
  { value: 'capped', label: 'Scan limit reached' },
];

export const isStatus = (v: string): v is CodeStatus => STATUSES.some((s) => s.value === v);

/**
 * The status the server would give now, for an item changed here (a code resumed in the list)
 * without reading it again: the server's own rule (domain/dynamic/lifecycle.ts).
 */
export function statusAt(item: QrItem, now: number): CodeStatus {
  return statusOf(item, now);
}

const counts = new Intl.NumberFormat();
const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const moment = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dayThisYear = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const yearOf = (d: Date): string => new Intl.DateTimeFormat(undefined, { year: 'numeric' }).format(d);
/** 'Dec 3' within the current year, else 'Dec 3, 2027'. */
function shortDay(iso: string): string {
  const d = new Date(iso);
  return yearOf(d) === yearOf(new Date()) ? dayThisYear.format(d) : day.format(d);
}
/** 'Dec 3, 2026, 9:00 AM' in the browser's language and zone. */
export const formatMoment = (iso: string): string => moment.format(new Date(iso));

/**
 * What a badge says: the state, and for a waiting or full code the one number that explains
 * it (`sub`, which may go to a second line in a narrow column); `detail` is the long form.
 */
export function statusText(item: QrItem): { text: string; sub?: string; detail?: string } {
  switch (item.status) {
    case 'scheduled':
      return item.activatesAt
        ? { text: 'Opens', sub: shortDay(item.activatesAt), detail: `Opens ${formatMoment(item.activatesAt)}` }
        : { text: 'Scheduled' };
    case 'expired':
      return item.expiresAt ? { text: 'Expired', detail: `Expired ${formatMoment(item.expiresAt)}` } : { text: 'Expired' };
    case 'capped':
      return item.maxScans !== null
        ? {
            text: 'Limit reached:',
            sub: `${counts.format(item.capCount)} of ${counts.format(item.maxScans)}`,
            detail: `Scan limit reached: ${counts.format(item.capCount)} of ${counts.format(item.maxScans)} ${item.scanCapBasis === 'unique' ? 'unique scans' : 'scans'}`,
          }
        : { text: 'Limit reached' };
    case 'paused':
      return { text: 'Paused' };
    default:
      return { text: 'Active' };
  }
}

export const hasLifecycle = (item: QrItem): boolean => item.activatesAt !== null || item.expiresAt !== null || item.maxScans !== null;
