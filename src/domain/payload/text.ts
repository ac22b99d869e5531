// Text: shown on a landing page as written, so surrounding whitespace is kept.
import { required } from './checks.ts';
import type { TypedFields } from './fields.ts';

export function assembleText(f: TypedFields): string {
  return required(f.text, 'text', 'text', false);
}
