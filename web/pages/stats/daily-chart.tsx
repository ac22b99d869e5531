// Scans and unique scans per day, drawn by uPlot (small and fast). The days are already
// local to the chosen zone, so the x axis shows them as dates without shifting them again.
// The same numbers are in a table below the chart for screen readers and for copying.
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
        { label: 'Scans', stroke: accent, width: 2, fill: `${accent}22`, points: { show: daily.length <= 31 }, value: (_u, v) => (v == null ? '–' : formatCount(v)) },
        { label: 'Unique scans', stroke: second, width: 2, dash: [6, 4], points: { show: daily.length <= 31 }, value: (_u, v) => (v == null ? '–' : formatCount(v)) },
      ],
      cursor: { points: { size: 8 }, drag: { x: false, y: false } },
      legend: { live: true },
    };
    plot.current?.destroy();
    plot.current = new uPlot(opts, data, el);
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
      <div ref={box} class="chart" role="img" aria-label={`${title}: line chart of scans and unique scans, the numbers are in the table below`} />
      <details class="chart__table">
        <summary>Show the numbers</summary>
        <table class="table daily-table">
          <caption class="visually-hidden">{title}</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col" class="num">Scans</th>
              <th scope="col" class="num">Unique scans</th>
            </tr>
          </thead>
          <tbody>
            {daily.map((d) => (
              <tr key={d.date} data-date={d.date}>
                <td data-label="Day">{d.date}</td>
                <td data-label="Scans" class="num">{d.scans}</td>
                <td data-label="Unique scans" class="num">{d.uniqueScans}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}
