// The FTS5 query of a text search on SQLite, scoped to one account (migration 0010): the
// account's token AND the query as a phrase in the two text columns.

/** The account's token: its key as three base-65,536 digits from U+F0000 (as the migration's triggers write it). */
export function accountToken(key: number): string {
  if (!Number.isSafeInteger(key) || key < 0) throw new Error(`search key: expected a natural number, got ${key}`);
  const digit = (n: number) => String.fromCodePoint(0xf0000 + (n % 65_536));
  return digit(Math.floor(key / 2 ** 32)) + digit(Math.floor(key / 65_536)) + digit(key);
}

/** A trigram phrase is a substring; quotes inside it are doubled. */
export function accountTextMatch(key: number, folded: string): string {
  return `account : "${accountToken(key)}" AND {search_title search_payload} : "${folded.replaceAll('"', '""')}"`;
}
