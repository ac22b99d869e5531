// Spreadsheet formula guard for the codes CSV. A cell a spreadsheet would run as a formula
// (starting with = + - @, their full-width forms ＝ ＋ － ＠, which some spreadsheets read as the
// same, a tab or a carriage return) is exported with an apostrophe in
// front, as the stats CSVs are; unlike them, this file is also read back by the import, so
// the guard is reversible: a cell that already starts with apostrophes before such a
// character gets one more, and the import takes exactly one off.
const FORMULA = /^'*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
const GUARDED = /^'+[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

export function guardFormula(cell: string): string {
  return FORMULA.test(cell) ? `'${cell}` : cell;
}

export function unguardFormula(cell: string): string {
  return GUARDED.test(cell) ? cell.slice(1) : cell;
}
