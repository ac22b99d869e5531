// Scans and unique scans per day, drawn by uPlot (small and fast). The days are already
// local to the chosen zone, so the x axis shows them as dates without shifting them again.
// The same numbers are in a table below the chart for screen readers and for copying; to a
// screen reader the chart itself is one image with a one-sentence summary (uPlot's legend
// and canvas inside it are hidden).
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { dayTicks } from './day-ticks.ts';
import { formatCount, shortDate } from './format.ts';

export interface DailyPoint {
  date: string;
  scans: number;
  uniqueScans: number;
}

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

const toSeconds = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;

export function DailyChart({ daily, title = 'Scans per day' }: { daily: DailyPoint[]; title?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const data: uPlot.AlignedData = [daily.map((d) => toSeconds(d.date)), daily.map((d) => d.scans), daily.map((d) => d.uniqueScans)];
    const accent = cssVar('--chart-1', '#1d5fd1');
    const second = cssVar('--chart-2', '#c2410c');
    const grid = cssVar('--border', '#d5d9e0');
    const text = cssVar('--muted', '#5a6170');
    const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const opts: uPlot.Options = {
      width: Math.max(el.clientWidth, 280),
      height: 240,
      // Dates are whole local days written as UTC midnights: show them in UTC so they do not move.
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.15))] } },
      axes: [
        {
          ...axis,
          splits: (u) => dayTicks(u.scales.x?.min ?? 0, u.scales.x?.max ?? 0, u.bbox.width / uPlot.pxRatio),
          values: (_u, ticks) => ticks.map((t) => shortDate(new Date(t * 1000).toISOString().slice(0, 10))),
        },
        { ...axis, values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? formatCount(t) : '')) },
      ],
      series: [
        { label: 'Day', value: (_u, v) => (v == null ? '–' : shortDate(new Date(v * 1000).toISOString().slice(0, 10))) },
        {
          label: 'Scans',
          stroke: accent,
          width: 2,
          fill: `${accent}22`,
          points: { show: daily.length <= 31 },
          value: (_u, v) => (v == null ? '–' : formatCount(v)),
        },
        {
          label: 'Unique scans',
          stroke: second,
          width: 2,
          dash: [6, 4],
          points: { show: daily.length <= 31 },
          value: (_u, v) => (v == null ? '–' : formatCount(v)),
        },
      ],
      cursor: { points: { size: 8 }, drag: { x: false, y: false } },
      legend: { live: true },
    };
    plot.current?.destroy();
    plot.current = new uPlot(opts, data, el);
    // The legend table ("Day: –", "Scans: –") and the axes mean nothing read out of the picture.
    plot.current.root.setAttribute('aria-hidden', 'true');
    const resize = new ResizeObserver(() => plot.current?.setSize({ width: Math.max(el.clientWidth, 280), height: 240 }));
    resize.observe(el);
    // uPlot keeps the plot's position from when it was drawn; panels that load later move it.
    const sync = () => plot.current?.syncRect();
    el.addEventListener('pointerover', sync, { capture: true });
    return () => {
      el.removeEventListener('pointerover', sync, { capture: true });
      resize.disconnect();
      plot.current?.destroy();
      plot.current = null;
    };
  }, [daily]);

  return (
    <section class="card panel" aria-labelledby="chart-title">
      <h2 id="chart-title">{title}</h2>
      <div ref={box} class="chart" role="img" aria-label={chartSummary(title, daily)} />
      <details class="chart__table">
        <summary>Show the numbers</summary>
        <table class="table daily-table">
          <caption class="visually-hidden">{title}</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col" class="num">
                Scans
              </th>
              <th scope="col" class="num">
                Unique scans
              </th>
            </tr>
          </thead>
          <tbody>
            {daily.map((d) => (
              <tr key={d.date} data-date={d.date}>
                <td data-label="Day">{d.date}</td>
                <td data-label="Scans" class="num">
                  {d.scans}
                </td>
                <td data-label="Unique scans" class="num">
                  {d.uniqueScans}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}

/** "Scans per day, Nov 1 to Nov 30: 42 scans, busiest Nov 20 with 9. The numbers are in the table below." */
export function chartSummary(title: string, daily: DailyPoint[]): string {
  const first = daily[0];
  const last = daily.at(-1);
  if (!first || !last) return `${title}: no days to show.`;
  const span = `${title}, ${shortDate(first.date)} to ${shortDate(last.date)}`;
  const sum = daily.reduce((a, d) => a + d.scans, 0);
  if (sum === 0) return `${span}: no scans.`;
  // The latest of equally busy days, as in the codes list.
  const busiest = daily.reduce((best, d) => (d.scans >= best.scans ? d : best), first);
  return `${span}: ${formatCount(sum)} ${sum === 1 ? 'scan' : 'scans'}, busiest ${shortDate(busiest.date)} with ${formatCount(busiest.scans)}. The numbers are in the table below.`;
}
