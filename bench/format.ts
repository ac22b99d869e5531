// Printing benchmark rows as a plain aligned table, so a run reads the same in a
// terminal, a CI log and a README.

export type Cell = string | number | null;
export type Row = Readonly<Record<string, Cell>>;

/** Numbers right-aligned with up to `digits` decimals; text left-aligned; null as "–". */
export function formatTable(rows: readonly Row[], columns?: readonly string[], digits = 1): string {
  const cols = columns ?? [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cells = rows.map((r) => cols.map((c) => formatCell(r[c] ?? null, digits)));
  const widths = cols.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]?.length ?? 0)));
  const numeric = cols.map((c) => rows.some((r) => typeof r[c] === 'number'));
  const line = (values: readonly string[]): string =>
    values
      .map((v, i) => (numeric[i] ? v.padStart(widths[i] ?? 0) : v.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(cols), rule, ...cells.map(line)].join('\n');
}

export function printTable(rows: readonly Row[], columns?: readonly string[], digits = 1): void {
  console.log(formatTable(rows, columns, digits));
}

/** `value / base` as "0.52×"; "n/a" when the base is zero or either side is not finite. */
export function formatRatio(value: number, base: number, digits = 2): string {
  if (!Number.isFinite(value) || !Number.isFinite(base) || base === 0) return 'n/a';
  return `${(value / base).toFixed(digits)}×`;
}

function formatCell(value: Cell, digits: number): string {
  if (value === null) return '–';
  if (typeof value === 'string') return value;
  if (!Number.isFinite(value)) return String(value);
  return Number.isInteger(value) ? value.toLocaleString('en-US') : value.toLocaleString('en-US', { maximumFractionDigits: digits });
}
