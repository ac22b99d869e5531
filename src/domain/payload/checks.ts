// Checks every kind shares: the content type, text that can be stored, the length, and the
// required / optional / single-line readings of form fields.
import { ValidationError } from '../errors.ts';
import { CONTENT_TYPES, type ContentType, isContentType } from './fields.ts';

/** Counted in Unicode code points, like JSON Schema's maxLength. */
export const PAYLOAD_MAX_LENGTH = 4000;

export function checkContentType(contentType: string): void {
  if (!isContentType(contentType)) {
    throw new ValidationError(`contentType: must be one of ${CONTENT_TYPES.join(', ')}`);
  }
}

// NUL cannot be stored in PostgreSQL text, and a lone surrogate cannot be encoded as UTF-8
// (nor percent-encoded): both would surface as a 5xx far from the input that caused it.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function checkStorableText(field: string, value: string): void {
  if (typeof value !== 'string') throw new ValidationError(`${field}: must be a string`);
  if (UNSTORABLE.test(value)) {
    throw new ValidationError(`${field}: must be valid Unicode text without NUL characters`);
  }
}

function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export function checkLength(payload: string): string {
  if (payload.length > PAYLOAD_MAX_LENGTH && codePointLength(payload) > PAYLOAD_MAX_LENGTH) {
    throw new ValidationError(`payload: must be at most ${PAYLOAD_MAX_LENGTH} characters`);
  }
  return payload;
}

/** The field's value (trimmed unless `trim` is false), or a 400 naming it. */
export function required(value: string | undefined, field: string, kind: ContentType, trim = true): string {
  if (value === undefined || value.trim() === '') throw new ValidationError(`${field}: is required for contentType ${kind}`);
  return trim ? value.trim() : value;
}

/** Trimmed value, or undefined when absent or blank: an empty form field means "not given". */
export function optional(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** Like `optional`, but keeps surrounding whitespace of free text (messages, bodies). */
export function optionalText(value: string | undefined): string | undefined {
  return optional(value) === undefined ? undefined : value;
}

export function singleLine(value: string, field: string): string {
  if (/[\r\n\u2028\u2029]/.test(value)) throw new ValidationError(`${field}: must be a single line`);
  return value;
}
