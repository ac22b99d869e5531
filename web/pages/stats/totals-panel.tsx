// The headline numbers, each with what it means: "unique" and "bot" are not obvious.
import type { ComponentChildren } from 'preact';
import { formatCount } from './format.ts';

export interface Total {
  label: string;
  value: number | string;
  help: ComponentChildren;
  id: string;
}

export function TotalsPanel({ totals }: { totals: Total[] }) {
  return (
    <dl class="totals">
      {totals.map((t) => (
        <div key={t.id} class="totals__item" data-total={t.id}>
          <dt>{t.label}</dt>
          <dd>
            <span class="totals__value">{typeof t.value === 'number' ? formatCount(t.value) : t.value}</span>
            <span class="totals__help">{t.help}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}
