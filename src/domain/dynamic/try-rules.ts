// POST /v1/qr/{id}/rules/test: which rule, variant and destination a described visit would
// get, through the same matcher and passthrough as a real scan, recording nothing.
import type { CompiledRules } from './compile-rules.ts';
import { withQuery } from './passthrough.ts';
import type { RulesTestRequest, RulesTestResult, Utm } from './rules-schema.ts';
import { visitorFromTest } from './visitor-context.ts';

/** What the answer needs of the item besides its rules. */
export interface RulesTestItem {
  /** The item's own destination (its payload). */
  destination: string;
  forwardQuery: boolean;
  utm: Utm | null;
}

export function testRules(rules: CompiledRules, request: RulesTestRequest, item: RulesTestItem, nowMs: number): RulesTestResult {
  const match = rules.match(visitorFromTest(request, nowMs));
  const rawQuery = new URLSearchParams((request.query ?? {}) as Record<string, string>).toString();
  return {
    ruleId: match.rule?.id ?? null,
    ruleName: match.rule?.name ?? null,
    variant: match.variant,
    destination: withQuery(match.destination ?? item.destination, rawQuery, item.forwardQuery, item.utm),
  };
}
