// Where a code's scans went (issue #26): the rule that matched, the variant of a split and
// the destination, and the scans the lifecycle or a password refused. Rule ids are mapped to
// what the owner calls them, from the item's own rules.
import type { CodeStats } from '../../api.ts';
import type { Rule } from '../../item-lifecycle.ts';

/** Present for a code whose scans went through rules (none for a code without rules). */
export type VariantRow = NonNullable<CodeStats['breakdown']['variant']>[number];
export type Blocked = NonNullable<CodeStats['blocked']>;
export const NO_BLOCKED: Blocked = { scheduled: 0, expired: 0, capped: 0, passwordRequired: 0, passwordFailed: 0 };

/** The server's name for the entries past its 49th, summed as one. */
export const OTHER = '(other)';

/** A rule's name as the owner sees it: its own name, else its place in the list. */
export function ruleName(rules: readonly Rule[], id: string): string {
  if (id === 'none') return 'No rule (the code’s own destination)';
  if (id === OTHER) return 'Other rules';
  const at = rules.findIndex((r) => r.id === id);
  if (at < 0) return 'A rule since removed';
  return rules[at]?.name?.trim() || `Rule ${at + 1}`;
}

export interface VariantLine {
  index: number;
  /** The variant's destination and weight now; null for a variant no longer in the rule. */
  destination: string | null;
  weight: number | null;
  scans: number;
  uniqueScans: number;
}
export interface SplitGroup {
  ruleId: string;
  name: string;
  variants: VariantLine[];
}

/**
 * The variants of each split, grouped per rule in the rules' order: every variant the rule has
 * now (with no scans yet, too), then any scanned variant the rule no longer has; rules that
 * were removed but have scans in the range come last.
 */
export function splitGroups(rules: readonly Rule[], rows: readonly VariantRow[]): SplitGroup[] {
  const byRule = new Map<string, Map<number, VariantRow>>();
  for (const row of rows) {
    const hash = row.value.lastIndexOf('#');
    if (hash < 0) continue; // "(other)": too many to say which
    const ruleId = row.value.slice(0, hash);
    const index = Number(row.value.slice(hash + 1));
    if (!Number.isInteger(index)) continue;
    const rule = byRule.get(ruleId) ?? new Map<number, VariantRow>();
    rule.set(index, row);
    byRule.set(ruleId, rule);
  }
  const line = (index: number, row: VariantRow | undefined, now?: { destination: string; weight: number }): VariantLine => ({
    index,
    destination: now?.destination ?? null,
    weight: now?.weight ?? null,
    scans: row?.scans ?? 0,
    uniqueScans: row?.uniqueScans ?? 0,
  });
  const groups: SplitGroup[] = [];
  for (const rule of rules) {
    const id = rule.id ?? '';
    const seen = byRule.get(id) ?? new Map<number, VariantRow>();
    byRule.delete(id);
    if (!rule.split && seen.size === 0) continue;
    const variants = (rule.split ?? []).map((v, i) => line(i, seen.get(i), v));
    for (const [i, row] of [...seen].sort(([a], [b]) => a - b)) if (i >= variants.length) variants.push(line(i, row));
    groups.push({ ruleId: id, name: ruleName(rules, id), variants });
  }
  for (const [ruleId, seen] of byRule) {
    groups.push({
      ruleId,
      name: ruleName(rules, ruleId),
      variants: [...seen].sort(([a], [b]) => a - b).map(([i, row]) => line(i, row)),
    });
  }
  return groups;
}

/** 'A', 'B', … as splits are usually talked about. */
export const variantLetter = (index: number): string => (index < 26 ? String.fromCharCode(65 + index) : String(index + 1));
