// What short links answered, counted where they are answered. A plain object of numbers, kept
// whether metrics are served or not: the redirect pays one increment, nothing that hashes labels
// or allocates; /metrics reads it when scraped (metrics.ts).

/**
 * A closed list, so the metric's cardinality is fixed. The scan outcomes of product-decisions §11,
 * plus answers that are no scan: a paused or unknown code (not_found), a deleted one (gone), a
 * contact card download, the password form's throttle and its 303, an account domain's root
 * redirect (GET / on that domain), a POST where none is taken,
 * a database that cannot be read (unavailable), and a failure (error, a 500).
 */
export const SHORT_LINK_OUTCOMES = [
  'redirect',
  'landing',
  'not_found',
  'gone',
  'scheduled',
  'expired',
  'capped',
  'password_required',
  'password_failed',
  'password_throttled',
  'password_accepted',
  'contact_card',
  'root_redirect',
  'not_allowed',
  'unavailable',
  'error',
] as const;
export type ShortLinkOutcome = (typeof SHORT_LINK_OUTCOMES)[number];

export type ShortLinkTally = Record<ShortLinkOutcome, number>;

export function newShortLinkTally(): ShortLinkTally {
  return Object.fromEntries(SHORT_LINK_OUTCOMES.map((o) => [o, 0])) as ShortLinkTally;
}
