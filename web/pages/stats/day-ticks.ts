// Where the daily chart puts its date labels. Left to itself uPlot's time axis picks hours
// for a week (a label every 8 hours), and each day's date came out three times. The chart's
// points are whole days, so its ticks are too: every day, or every 2, 7, 14, 28 … days when
// the chart is too narrow for a label a day, counted back from the last day so today has one.

const DAY = 86_400;
const STEPS = [1, 2, 7, 14, 28, 56, 112];

/** Tick positions in seconds (UTC midnights) from `first` to `last`, at least `minGapPx` apart on a plot `widthPx` wide. */
export function dayTicks(first: number, last: number, widthPx: number, minGapPx = 64): number[] {
  const days = Math.max(1, Math.round((last - first) / DAY) + 1);
  const perDay = widthPx / days;
  const step = STEPS.find((s) => perDay * s >= minGapPx) ?? (STEPS[STEPS.length - 1] as number);
  const ticks: number[] = [];
  for (let t = last; t >= first - 1; t -= step * DAY) ticks.unshift(t);
  return ticks;
}
