// The per-account code quota (MAX_CODES_PER_ACCOUNT): one write key could otherwise fill the
// disk, and then scans are lost (docs/decisions/bulk-work-and-quotas.md).
import { ValidationError } from '../errors.ts';

/** A create, batch or import that would take the account past its quota: 400 naming the limit. */
export class CodeQuotaError extends ValidationError {
  constructor(held: number, max: number, adding: number) {
    const n = (v: number) => v.toLocaleString('en-US');
    super(
      `codes: an account may hold at most ${n(max)} codes; it holds ${n(held)} and this request would add ${n(adding)}` +
        '; delete codes first, or ask the operator to raise MAX_CODES_PER_ACCOUNT',
    );
  }
}

/** Throws CodeQuotaError unless `held + adding` fits `max`. */
export function checkCodeQuota(held: number, max: number, adding: number): void {
  if (held + adding > max) throw new CodeQuotaError(held, max, adding);
}
