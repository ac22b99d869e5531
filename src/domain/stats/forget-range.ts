// The range of DELETE /v1/qr/{id}/scans: optional ends, each a date (UTC midnight) or an ISO
// date-time, `from` before `to`; normalized to the ISO form the scan log compares with.
import { ValidationError } from '../errors.ts';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

function time(field: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const ms = DATE.test(value) ? Date.parse(`${value}T00:00:00Z`) : DATE_TIME.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms))
    throw new ValidationError(`${field}: must be a date (2026-11-01) or an ISO 8601 date-time (2026-11-01T09:00:00Z)`);
  return new Date(ms).toISOString();
}

export function parseForgetRange(query: { from?: string; to?: string }): { from?: string; to?: string } {
  const from = time('from', query.from);
  const to = time('to', query.to);
  if (from !== undefined && to !== undefined && from >= to) throw new ValidationError('to: must be after from');
  return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
}
