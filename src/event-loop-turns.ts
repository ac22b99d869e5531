// Long loops on the thread that answers the short links hand it back every few milliseconds.
// By the clock, not by item count: items' costs differ widely (docs/big-accounts.md).
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Work done between two turns at most (plus one unit of work). */
export const TURN_EVERY_MS = 10;

/**
 * A function to await after each unit of work: it gives the event loop a turn once `everyMs`
 * have passed since the last one, or after `everyItems` units, whichever comes first, and
 * otherwise returns at once. Resolves true when it gave a turn.
 */
export function turnTaker(everyItems: number, everyMs = TURN_EVERY_MS): () => Promise<boolean> {
  let since = performance.now();
  let items = 0;
  return async () => {
    if (++items < everyItems && performance.now() - since < everyMs) return false;
    await nextTurn();
    since = performance.now();
    items = 0;
    return true;
  };
}
