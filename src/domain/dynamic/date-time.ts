// ISO 8601 instants as lifecycle fields and date conditions take them: a full date-time with an
// explicit offset (`Z` or ±hh:mm). A time without an offset would mean a different instant on
// every server, so it is refused rather than guessed.
import { ValidationError } from '../errors.ts';

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/i;
const RULE = 'must be an ISO 8601 date-time with an offset, e.g. 2026-03-01T09:00:00Z';

/** The instant of `value` in epoch milliseconds; throws `<field>: must be …` when it is not one. */
export function parseInstant(value: unknown, field: string): number {
  const m = typeof value === 'string' && value.length <= 40 ? DATE_TIME.exec(value) : null;
  if (m === null) throw new ValidationError(`${field}: ${RULE}`);
  const [year, month, day, hour, minute, second = '0', offH = '0', offM = '0'] = m.slice(1);
  const daysInMonth = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate();
  const valid =
    Number(month) >= 1 &&
    Number(month) <= 12 &&
    Number(day) >= 1 &&
    Number(day) <= daysInMonth &&
    Number(hour) <= 23 &&
    Number(minute) <= 59 &&
    Number(second) <= 59 &&
    Number(offH) <= 23 &&
    Number(offM) <= 59;
  const ms = valid ? Date.parse(value as string) : Number.NaN;
  if (!Number.isFinite(ms)) throw new ValidationError(`${field}: ${RULE}`);
  return ms;
}

/** `value` normalised to UTC (`2026-03-01T08:00:00.000Z`), as stored and answered. */
export function normalizeInstant(value: unknown, field: string): string {
  return new Date(parseInstant(value, field)).toISOString();
}
