// Small charts for a terminal: a sparkline of a daily series and proportional bars.
const TICKS = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'] as const;

/** One character per value; zero is the lowest tick, and any scan at all shows above it. */
export function sparkline(values: readonly number[]): string {
  const max = Math.max(0, ...values);
  return values
    .map((v) => {
      if (v <= 0 || max === 0) return TICKS[0];
      return TICKS[1 + Math.round((v / max) * (TICKS.length - 2))];
    })
    .join('');
}

/** A bar `width` cells long at most, proportional to value/max; never empty for a value above zero. */
export function bar(value: number, max: number, width = 20): string {
  if (value <= 0 || max <= 0) return '';
  return '█'.repeat(Math.max(1, Math.round((value / max) * width)));
}

/** Columns padded to their widest cell; the last column is not padded. */
export function table(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, [...cell].length);
    });
  }
  return rows.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - [...cell].length)))
      .join('  ')
      .trimEnd(),
  );
}

/** Cuts text to `max` characters with an ellipsis, on one line. */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ');
  return [...flat].length <= max ? flat : [...flat].slice(0, max - 1).join('') + '…';
}
