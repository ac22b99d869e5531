// Counts turns of the event loop while something runs: a test that a long request lets the
// loop turn (so the short links keep answering) counts turns, never time, on a noisy machine.
export function countTurns(): { stop(): number } {
  let turns = 0;
  let counting = true;
  const tick = () => {
    turns++;
    if (counting) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    stop() {
      counting = false;
      return turns;
    },
  };
}
