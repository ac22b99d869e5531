// Rows typed, pasted from a spreadsheet (tab-separated) or read from a CSV file, as the
// "Create many" page reads them: a title, a web address and tags (separated by |) a row, in
// that order, or in any order under a header row that names them.
export interface Row {
  /** The row's line in what was pasted, counted from 1, for the report. */
  line: number;
  title: string;
  url: string;
  tags: string[];
}

const COLUMNS = ['title', 'url', 'tags'] as const;

/** One line's cells: split at the delimiter, outside double quotes ("" is a quote inside). */
function cellsOf(line: string, delimiter: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
    } else if (c === delimiter) {
      cells.push(cell.trim());
      cell = '';
    } else cell += c;
  }
  cells.push(cell.trim());
  return cells;
}

export function parseRows(text: string): { rows: Row[]; header: boolean } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const delimiter = lines.some((l) => l.includes('\t')) ? '\t' : ',';
  const first = cellsOf(lines[0] ?? '', delimiter).map((c) => c.toLowerCase());
  const header = first.includes('title');
  const at = header
    ? Object.fromEntries(COLUMNS.map((c) => [c, first.indexOf(c === 'url' && !first.includes('url') ? 'destination' : c)]))
    : { title: 0, url: 1, tags: 2 };
  const rows: Row[] = [];
  lines.forEach((line, i) => {
    if ((header && i === 0) || line.trim() === '') return;
    const cells = cellsOf(line, delimiter);
    const cell = (k: (typeof COLUMNS)[number]) => ((at[k] ?? -1) >= 0 ? (cells[at[k] as number] ?? '') : '');
    rows.push({
      line: i + 1,
      title: cell('title'),
      url: cell('url'),
      tags: cell('tags')
        .split('|')
        .map((t) => t.trim())
        .filter(Boolean),
    });
  });
  return { rows, header };
}
