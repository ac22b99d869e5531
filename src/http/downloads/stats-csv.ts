// CSV renderings of the stats answers, for spreadsheets and scripts. Titles and referrer
// hosts come from users and scanners, so cells a spreadsheet would evaluate (=, +, -, @)
// are escaped by the library's formula guard.
import { stringify } from 'csv-stringify/sync';
import type { TopCode } from '../../domain/stats/account-stats.ts';
import { DIMENSIONS, type Stats } from '../../domain/stats/build-stats.ts';

const OPTIONS = { header: true, escape_formulas: true, record_delimiter: 'windows' } as const;

export function dailyCsv(daily: Stats['daily']): string {
  return stringify(
    daily.map((d) => [d.date, d.scans, d.uniqueScans]),
    { ...OPTIONS, columns: ['date', 'scans', 'unique_scans'] },
  );
}

export function breakdownCsv(breakdown: Stats['breakdown']): string {
  return stringify(
    [
      ...DIMENSIONS.flatMap((dim) => breakdown[dim].map((r) => [dim, r.value, r.scans])),
      // A code with rules: which rule, split variant (and its unique scans) and destination.
      ...(breakdown.rule ?? []).map((r) => ['rule', r.value, r.scans]),
      ...(breakdown.variant ?? []).flatMap((r) => [
        ['variant', r.value, r.scans],
        ['variant_unique', r.value, r.uniqueScans],
      ]),
      ...(breakdown.destination ?? []).map((r) => ['destination', r.value, r.scans]),
    ],
    { ...OPTIONS, columns: ['dimension', 'value', 'scans'] },
  );
}

export function topCodesCsv(top: readonly TopCode[]): string {
  return stringify(
    top.map((t) => [t.id, t.code, t.title, t.scans, t.uniqueScans]),
    { ...OPTIONS, columns: ['id', 'code', 'title', 'scans', 'unique_scans'] },
  );
}

/** `attachment; filename="…"` with only safe characters in the name. */
export function csvDisposition(parts: readonly string[]): string {
  const name = parts.join('-').replace(/[^A-Za-z0-9._-]/g, '_');
  return `attachment; filename="${name}.csv"`;
}
