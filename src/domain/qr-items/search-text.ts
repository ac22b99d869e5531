// How `q` matches: a case-insensitive substring of the title or the payload. The case
// folding happens here, in the application, and both databases store and compare the
// folded text byte for byte: SQLite's lower() folds only ASCII, and PostgreSQL's follows
// the server's locale, so folding in SQL would give different answers on the two.

/**
 * Folds text for matching: NFC (so a precomposed and a decomposed "é" are one), then
 * Unicode lower case, and the Greek final sigma as the ordinary one (a query "σ" must
 * find a word ending in "ς").
 */
export function foldForSearch(text: string): string {
  return text.normalize('NFC').toLowerCase().replaceAll('ς', 'σ');
}

/**
 * Whether a folded query can be answered by the trigram indexes. Both need three
 * characters; PostgreSQL's pg_trgm only takes trigrams from runs of letters and digits,
 * so a query without such a run of three (`ab`, `://`) walks the list instead. The same
 * rule on both databases keeps their plans alike; their answers are the same either way.
 */
export function searchableByTrigrams(folded: string): boolean {
  return /[\p{L}\p{N}]{3}/u.test(folded);
}
