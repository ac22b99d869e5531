// A code's last 14 days as a tiny line: drawn as SVG in the page (no chart library in the
// list's chunk), with the numbers in its accessible name and in data-scans for the tests.
import { formatCount } from '../stats/format.ts';

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
  const sum = scans.reduce((a, b) => a + b, 0);
  const last = points.at(-1)!;
  return (
    <svg
      class="spark"
      viewBox={`0 0 ${W} ${H}`}
      width={W}
      height={H}
      role="img"
      aria-label={`${formatCount(sum)} scans from ${from} to ${to}; per day: ${scans.join(', ')}`}
      data-scans={scans.join(',')}
    >
      <polygon class="spark__area" points={area} />
      <polyline class="spark__line" points={line} />
      <circle class="spark__now" cx={last[0]} cy={last[1]} r="2" />
    </svg>
  );
}
