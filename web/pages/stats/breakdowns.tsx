// The five breakdowns of a range side by side (one column on a phone).
import type { StatsBreakdown } from '../../api.ts';
import { BreakdownList } from './breakdown-list.tsx';
import { countryName } from './format.ts';

/** The visitor's breakdowns (a code with rules also has rule, variant and destination ones). */
type VisitorDim = 'device' | 'os' | 'browser' | 'country' | 'referrer';

export function Breakdowns({ breakdown, only }: { breakdown: StatsBreakdown; only?: VisitorDim[] }) {
  const all: Array<[VisitorDim, string]> = [
    ['device', 'Devices'],
    ['os', 'Operating systems'],
    ['browser', 'Browsers'],
    ['country', 'Countries'],
    ['referrer', 'Referrers'],
  ];
  return (
    <div class="grid">
      {all
        .filter(([dim]) => !only || only.includes(dim))
        .map(([dim, title]) => (
          <BreakdownList
            key={dim}
            title={title}
            rows={breakdown[dim]}
            label={dim === 'country' ? countryName : dim === 'referrer' ? (v) => (v === 'direct' ? 'Direct (no referrer)' : v) : undefined}
          />
        ))}
    </div>
  );
}
