// Long loops on the thread that answers the short links hand it back every few milliseconds.
// Counting items between turns guessed their cost: a batch's design warnings cost 1 ms an item
// with a Latin frame text and 5 ms or more with several scripts, so 20 items held the thread
// for 100 ms and more. The clock is what a waiting short link feels.
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
