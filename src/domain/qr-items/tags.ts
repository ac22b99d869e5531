// Tags slice a big account's codes (a campaign, a print run, a venue). A code has up to
// 20; a tag is 1 to 64 characters, kept as written (case included) after trimming and
// NFC, so "Café" typed two ways is one tag.
import { ValidationError } from '../errors.ts';

export const TAG_MAX_LENGTH = 64;
export const TAGS_PER_ITEM = 20;
/** Tags share one CSV cell on import and export, separated by this; a tag may not contain it. */
export const TAG_SEPARATOR = '|';

/** One tag name, normalised; `field` names it in the error. */
export function normalizeTag(raw: string, field = 'tag'): string {
  const tag = raw.normalize('NFC').trim();
  if (tag === '') throw new ValidationError(`${field}: must not be empty`);
  if ([...tag].length > TAG_MAX_LENGTH) throw new ValidationError(`${field}: must be a string of at most ${TAG_MAX_LENGTH} characters`);
  // Control characters would be invisible in every list that shows the tag.
  if (/\p{Cc}/u.test(tag)) throw new ValidationError(`${field}: must not contain control characters`);
  if (tag.includes(TAG_SEPARATOR)) throw new ValidationError(`${field}: must not contain ${TAG_SEPARATOR}`);
  return tag;
}

/**
 * Orders by code point, as both databases order tags (SQLite's bytes, PostgreSQL's "C"):
 * JavaScript's default sort compares UTF-16 units and puts an emoji before "Ａ" (U+FF21).
 */
function byCodePoint(a: string, b: string): number {
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(j) as number;
    if (x !== y) return x - y;
    i += x > 0xffff ? 2 : 1;
    j += y > 0xffff ? 2 : 1;
  }
  return a.length - b.length;
}

/** A code's tags: normalised, without repeats, sorted as the databases sort them, so answers are stable. */
export function normalizeTags(raw: readonly string[]): string[] {
  const tags = [...new Set(raw.map((t, i) => normalizeTag(t, `tags[${i}]`)))];
  if (tags.length > TAGS_PER_ITEM) throw new ValidationError(`tags: must hold at most ${TAGS_PER_ITEM} tags`);
  return tags.sort(byCodePoint);
}
