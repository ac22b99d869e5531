import { describe, expect, it } from 'vitest';
import { dayTicks } from '../../web/pages/stats/day-ticks.ts';

const DAY = 86_400;
const first = Date.parse('2026-11-18T00:00:00Z') / 1000;
const day = (n: number) => first + n * DAY;
const dates = (ticks: number[]) => ticks.map((t) => new Date(t * 1000).toISOString().slice(0, 10));

describe("the daily chart's date ticks", () => {
  it('puts one tick on each day of a week on a wide chart: every date once', () => {
    const ticks = dayTicks(day(0), day(6), 700);
    expect(dates(ticks)).toEqual(['2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24']);
  });

  it('spaces the ticks by whole days on a narrow chart, counting back from the last day', () => {
    // 30 days on a 330 px phone chart: 11 px a day, so a tick every 7 days.
    const ticks = dayTicks(day(0), day(29), 330);
    expect(ticks.at(-1)).toBe(day(29));
    expect(new Set(ticks.slice(1).map((t, i) => t - (ticks[i] as number)))).toEqual(new Set([7 * DAY]));
    expect(ticks[0]).toBeGreaterThanOrEqual(day(0));
    // 90 days on a desktop chart: every 14 days; every tick a UTC midnight.
    const wide = dayTicks(day(0), day(89), 700);
    expect(wide[1]! - wide[0]!).toBe(14 * DAY);
    for (const t of wide) expect(t % DAY).toBe(0);
  });

  it('has a tick for a single day', () => {
    expect(dayTicks(day(3), day(3), 300)).toEqual([day(3)]);
  });
});
