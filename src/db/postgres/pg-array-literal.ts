// PostgreSQL array literals for the scan batch's array parameters, written directly.
// `pg` converts each element through a type dispatch and two regular-expression
// replacements, which cost more on every scan batch (docs/scaling.md). Every element
// is quoted (so no value can be read as NULL or split on a comma or brace); inside the
// quotes only `"` and `\` need a backslash.
const SPECIAL = /["\\]/;
const SPECIALS = /["\\]/g;

/** `{"a","b",NULL}` for text[] and timestamptz[] parameters. */
export function textArray(values: readonly (string | null | undefined)[]): string {
  // One join, not a string grown element by element: V8 flattens a long chain of `+=` again
  // and again, and a roll-up slice's arrays hold tens of thousands of elements.
  let plain = true;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined || SPECIAL.test(v)) {
      plain = false;
      break;
    }
  }
  if (values.length === 0) return '{}';
  if (plain) return `{"${values.join('","')}"}`;
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    parts[i] = v === null || v === undefined ? 'NULL' : SPECIAL.test(v) ? `"${v.replace(SPECIALS, '\\$&')}"` : `"${v}"`;
  }
  return `{${parts.join(',')}}`;
}

/** `{1,2,3}` for bigint[] parameters; only integers are accepted. */
export function integerArray(values: readonly number[]): string {
  for (const v of values) if (!Number.isSafeInteger(v)) throw new TypeError(`integerArray: not an integer: ${v}`);
  return `{${values.join(',')}}`;
}

/** `{t,f}` for boolean[] parameters. */
export function booleanArray(values: readonly boolean[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) out += (i > 0 ? ',' : '') + (values[i] ? 't' : 'f');
  return out + '}';
}
