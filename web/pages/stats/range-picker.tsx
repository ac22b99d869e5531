// 7 / 14 / 30 / 90 days: a group of toggle buttons, the pressed one is the range shown.
import { RANGES, type Range } from './use-stats.ts';

export function RangePicker({ value, onChange }: { value: Range; onChange: (r: Range) => void }) {
  return (
    <div class="range" role="group" aria-label="Range">
      {RANGES.map((r) => (
        <button key={r} type="button" class="range__btn" aria-pressed={r === value} onClick={() => onChange(r)}>
          {r} days
        </button>
      ))}
    </div>
  );
}
