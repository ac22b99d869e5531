// Caps on what one account or user can pile up. Each API key has its own request rate, so
// unlimited keys multiplied the rate limit; invites and sessions only grew tables.

/** Unrevoked API keys an account may hold (the CLI, the server's own tool, is not held to it). */
export const ACTIVE_KEYS_PER_ACCOUNT = 25;
/** Open (unused, unexpired) invites an account may hold. */
export const OPEN_INVITES_PER_ACCOUNT = 50;
/** Sessions a user may hold; signing in once more ends the oldest. */
export const SESSIONS_PER_USER = 20;
