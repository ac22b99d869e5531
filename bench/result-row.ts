import { printTable } from './format.ts';
// One line of a benchmark report: a figure, and where it has one, its ratio to a
// baseline measured in the same run.
export interface ResultRow {
  name: string;
  value: number;
  unit: string;
  ratio?: number;
  baseline?: string;
  extra?: string;
}

/** Prints result rows as the aligned table every bench entry point shows. */
export function printResults(rows: readonly ResultRow[]): void {
  printTable(
    rows.map((r) => ({
      benchmark: r.name,
      value: Number(r.value.toFixed(2)),
      unit: r.unit,
      ratio: r.ratio === undefined ? null : `${r.ratio.toFixed(2)}×`,
      baseline: r.baseline ?? null,
      notes: r.extra ?? null,
    })),
    undefined,
    2,
  );
}

/** The p-th percentile of times sorted ascending. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}
