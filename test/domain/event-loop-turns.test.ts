import { describe, expect, it } from 'vitest';
import { TURN_EVERY_MS, turnTaker } from '../../src/event-loop-turns.ts';
import { countTurns } from '../support/event-loop.ts';

/** Work that takes at least `ms` of the thread, however fast the machine. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // spin
  }
}

describe('turnTaker', () => {
  it('gives a turn after a number of units however cheap they are', async () => {
    const turn = turnTaker(5);
    const counter = countTurns();
    for (let i = 0; i < 50; i++) await turn();
    expect(counter.stop()).toBeGreaterThanOrEqual(10);
  });

  it('gives a turn once the work since the last one took TURN_EVERY_MS, however few the units', async () => {
    const turn = turnTaker(1_000);
    const counter = countTurns();
    // Each unit takes at least 40 % of the interval: a turn comes at least every third unit.
    for (let i = 0; i < 12; i++) {
      busy(TURN_EVERY_MS * 0.4);
      await turn();
    }
    expect(counter.stop()).toBeGreaterThanOrEqual(4);
  });
});
