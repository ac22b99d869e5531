// Which code points a font file draws, written compactly so the whole map ships with
// the renderer (the browser must know which file to fetch before it has any).
// Format: ranges of code points, each "gap" or "gap.extra" in base 36, comma-separated,
// where gap is the distance from the previous range's end and extra = length - 1.

export function encodeCoverage(codePoints: readonly number[]): string {
  const sorted = [...new Set(codePoints)].sort((a, b) => a - b);
  const parts: string[] = [];
  let prevEnd = -1;
  for (let i = 0; i < sorted.length; ) {
    const start = sorted[i] as number;
    let end = start;
    while (sorted[i + 1] === end + 1) {
      end++;
      i++;
    }
    i++;
    parts.push((start - prevEnd).toString(36) + (end > start ? '.' + (end - start).toString(36) : ''));
    prevEnd = end;
  }
  return parts.join(',');
}

/** Sorted [start, end] pairs, inclusive. */
export function decodeCoverage(encoded: string): Uint32Array {
  if (!encoded) return new Uint32Array(0);
  const parts = encoded.split(',');
  const out = new Uint32Array(parts.length * 2);
  let prevEnd = -1;
  parts.forEach((p, i) => {
    const [gap, extra] = p.split('.');
    const start = prevEnd + parseInt(gap as string, 36);
    const end = start + (extra ? parseInt(extra, 36) : 0);
    out[2 * i] = start;
    out[2 * i + 1] = end;
    prevEnd = end;
  });
  return out;
}

export function covers(ranges: Uint32Array, cp: number): boolean {
  let lo = 0;
  let hi = ranges.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < (ranges[2 * mid] as number)) hi = mid - 1;
    else if (cp > (ranges[2 * mid + 1] as number)) lo = mid + 1;
    else return true;
  }
  return false;
}
