// Where the scans went: by rule (named as in the studio), by destination, and each split's
// variants with scans and unique scans side by side, so a split test can be read off.
import type { StatsBreakdown } from '../../api.ts';
import type { Rule } from '../../item-lifecycle.ts';
import { OTHER, type SplitGroup, ruleName, splitGroups, variantLetter } from './attribution.ts';
import { BreakdownList } from './breakdown-list.tsx';
import { formatCount } from './format.ts';

/** The rule, destination and variant breakdowns come only for a code whose scans went through rules. */
export function RulePanels({ rules, breakdown }: { rules: readonly Rule[]; breakdown: StatsBreakdown }) {
  const byRule = breakdown.rule ?? [];
  const ruled = byRule.some((r) => r.value !== 'none');
  const groups = splitGroups(rules, breakdown.variant ?? []);
  return (
    <div class="grid">
      {rules.length === 0 && !ruled ? (
        <EmptyPanel id="bd-rules" title="Rules" breakdown="rules">
          This code has no rules: every scan goes to its own destination.
        </EmptyPanel>
      ) : (
        <BreakdownList title="Rules" rows={byRule} label={(v) => ruleName(rules, v)} />
      )}
      {/* A code without rules goes to its own destination: nothing to break down. */}
      {rules.length > 0 || breakdown.destination ? (
        <BreakdownList title="Destinations" rows={breakdown.destination ?? []} label={(v) => (v === OTHER ? 'Other destinations' : v)} />
      ) : null}
      {groups.length === 0 ? (
        <EmptyPanel id="variants-title" title="Variants" breakdown="variants">
          {rules.length === 0
            ? 'No split test: a rule can send its visitors to two or more variants by weight.'
            : 'None of this code’s rules splits its visitors between variants.'}
        </EmptyPanel>
      ) : (
        <VariantsPanel groups={groups} />
      )}
    </div>
  );
}

function EmptyPanel({ id, title, breakdown, children }: { id: string; title: string; breakdown: string; children: string }) {
  return (
    <section class="card panel" aria-labelledby={id} data-breakdown={breakdown}>
      <h2 id={id}>{title}</h2>
      <p class="muted">{children}</p>
    </section>
  );
}

/** One table per split rule: the variants as set now, each with its scans and unique scans. */
function VariantsPanel({ groups }: { groups: SplitGroup[] }) {
  return (
    <section class="card panel variants" aria-labelledby="variants-title" data-breakdown="variants">
      <h2 id="variants-title">Variants</h2>
      <p class="small muted">Each visitor keeps their variant for a day. Unique scans count different people per day.</p>
      {groups.map((g) => {
        const total = g.variants.reduce((n, v) => n + v.scans, 0);
        return (
          <div key={g.ruleId} class="variants__group" data-rule={g.ruleId}>
            <h3 class="variants__rule">{g.name}</h3>
            <div class="table-wrap">
              <table class="table variants__table">
                <caption class="visually-hidden">Variants of {g.name}, with their scans in the range</caption>
                <thead>
                  <tr>
                    <th scope="col">Variant</th>
                    <th scope="col">Destination</th>
                    <th scope="col" class="num">
                      Weight
                    </th>
                    <th scope="col" class="num">
                      Scans
                    </th>
                    <th scope="col" class="num">
                      Unique
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {g.variants.map((v) => (
                    <tr key={v.index} data-variant={`${g.ruleId}#${v.index}`} data-scans={v.scans} data-unique-scans={v.uniqueScans}>
                      <th scope="row" data-label="Variant">
                        {variantLetter(v.index)}
                      </th>
                      <td data-label="Destination" class="variants__dest">
                        {v.destination ?? <span class="muted">no longer in this rule</span>}
                      </td>
                      <td data-label="Weight" class="num">
                        {v.weight === null ? '–' : `${v.weight}%`}
                      </td>
                      <td data-label="Scans" class="num variants__num">
                        {formatCount(v.scans)}
                        {total > 0 ? <span class="muted"> ({Math.round((v.scans / total) * 1000) / 10}%)</span> : null}
                      </td>
                      <td data-label="Unique" class="num variants__num">
                        {formatCount(v.uniqueScans)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        );
      })}
    </section>
  );
}
