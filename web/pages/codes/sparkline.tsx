// A code's last 14 days as a tiny line: drawn as SVG in the page (no chart library in the
// list's chunk). Its accessible name sums it up in one sentence (a row read aloud must not
// list 14 numbers; the day by day numbers are on the code's dashboard); data-scans holds
// them for the tests.
import { formatCount, shortDate } from '../stats/format.ts';

const W = 112;
const H = 28;
const PAD = 2;

export function Sparkline({ scans, from, to }: { scans: number[] | undefined; from: string; to: string }) {
  if (!scans || scans.length === 0) return <span class="muted">–</span>;
  const max = Math.max(...scans, 1);
  const step = (W - 2 * PAD) / Math.max(scans.length - 1, 1);
  const points = scans.map((n, i) => [PAD + i * step, H - PAD - (n / max) * (H - 2 * PAD)] as const);
  const line = points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
  const area = `${PAD},${H - PAD} ${line} ${(W - PAD).toFixed(1)},${H - PAD}`;
  const last = points.at(-1)!;
  return (
    <svg
      class="spark"
      viewBox={`0 0 ${W} ${H}`}
      width={W}
      height={H}
      role="img"
      aria-label={sparklineSummary(scans, from, to)}
      data-scans={scans.join(',')}
    >
      <polygon class="spark__area" points={area} />
      <polyline class="spark__line" points={line} />
      <circle class="spark__now" cx={last[0]} cy={last[1]} r="2" />
    </svg>
  );
}

const DAY_MS = 86_400_000;

/**
 * "42 scans in 14 days, busiest 9 on Nov 20", "1 scan in 14 days, on Nov 20", "5 scans in
 * 14 days, all on Nov 20", "No scans in
 * 14 days". `from` and `to` are the first and last day (YYYY-MM-DD) of `scans`.
 */
export function sparklineSummary(scans: number[], from: string, to: string): string {
  const days = Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS) + 1;
  const span = `in ${days} ${days === 1 ? 'day' : 'days'}`;
  const sum = scans.reduce((a, b) => a + b, 0);
  if (sum === 0) return `No scans ${span}`;
  const max = Math.max(...scans);
  // The latest of equally busy days: the most recent is what a reader wants to know about.
  const busiest = scans.lastIndexOf(max);
  const on = shortDate(new Date(Date.parse(from) + busiest * DAY_MS).toISOString().slice(0, 10));
  if (sum === 1) return `1 scan ${span}, on ${on}`;
  if (sum === max) return `${formatCount(sum)} scans ${span}, all on ${on}`;
  return `${formatCount(sum)} scans ${span}, busiest ${formatCount(max)} on ${on}`;
}
