// One breakdown (device, OS, browser, country or referrer) as a list of bars, largest
// first, each bar's width its share of the dimension's scans.
import { formatCount } from './format.ts';

export interface BreakdownRow {
  value: string;
  scans: number;
}

export function BreakdownList({
  title,
  rows,
  label = (v) => v,
  limit = 8,
}: {
  title: string;
  rows: BreakdownRow[];
  label?: (value: string) => string;
  limit?: number;
}) {
  const total = rows.reduce((n, r) => n + r.scans, 0);
  const shown = rows.slice(0, limit);
  const rest = rows.slice(limit).reduce((n, r) => n + r.scans, 0);
  const id = `bd-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section class="card panel" aria-labelledby={id} data-breakdown={title.toLowerCase()}>
      <h2 id={id}>{title}</h2>
      {total === 0 ? (
        <p class="muted">No scans in this range.</p>
      ) : (
        <ul class="bars">
          {shown.map((r) => (
            <BarRow key={r.value} name={label(r.value)} value={r.value} scans={r.scans} share={r.scans / total} />
          ))}
          {rest > 0 ? <BarRow name="Others" value="others" scans={rest} share={rest / total} /> : null}
        </ul>
      )}
    </section>
  );
}

function BarRow({ name, value, scans, share }: { name: string; value: string; scans: number; share: number }) {
  const percent = Math.round(share * 1000) / 10;
  return (
    <li class="bars__row" data-value={value} data-scans={scans}>
      <span class="bars__bar" style={{ width: `${Math.max(share * 100, 0.5)}%` }} aria-hidden="true" />
      <span class="bars__name">{name}</span>
      <span class="bars__num">
        {formatCount(scans)} <span class="muted">({percent}%)</span>
      </span>
    </li>
  );
}
