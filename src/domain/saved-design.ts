// Saved designs ("templates"): a name and a whole design, per account. New codes start from
// one; the studio also offers a few built-in designs that are not stored.
import type { QrDesign } from './design/design.ts';
import { ValidationError } from './errors.ts';

export const DESIGN_NAME_MAX = 80;
/** Enough for a brand's variants; a bound keeps the studio's picker and the list cheap. */
export const DESIGNS_PER_ACCOUNT = 200;

export interface SavedDesignRecord {
  id: string;
  name: string;
  design: QrDesign;
  createdAt: string;
  updatedAt: string;
}

/** Trimmed; 1 to 80 characters, no control characters. */
export function checkDesignName(raw: string): string {
  const name = raw.trim();
  if (name === '' || [...name].length > DESIGN_NAME_MAX) throw new ValidationError(`name: must be 1 to ${DESIGN_NAME_MAX} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) throw new ValidationError('name: must not contain control characters');
  return name;
}
