// Numbers, lengths and transforms of user SVG, read by hand-written scanners that look at
// each character once. Regexes with adjacent quantifiers (`\s*(?:px)?\s*$`, `[^)'"]*\1`)
// backtracked quadratically or worse on crafted input (issue 11); these cannot.

const isDigit = (c: number) => c >= 48 && c <= 57;
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13 || c === 12;

/**
 * Length of the number at `s[i]` (`-1.5e3`, `.5`, `+2`), or 0 when there is none.
 * Each character is looked at once.
 */
export function numberLength(s: string, i: number): number {
  let j = i;
  if (s.charCodeAt(j) === 43 || s.charCodeAt(j) === 45) j++;
  let digits = 0;
  while (isDigit(s.charCodeAt(j))) j++, digits++;
  if (s.charCodeAt(j) === 46) {
    j++;
    while (isDigit(s.charCodeAt(j))) j++, digits++;
  }
  if (digits === 0) return 0;
  const e = s.charCodeAt(j);
  if (e === 101 || e === 69) {
    let k = j + 1;
    if (s.charCodeAt(k) === 43 || s.charCodeAt(k) === 45) k++;
    const start = k;
    while (isDigit(s.charCodeAt(k))) k++;
    if (k > start) j = k;
  }
  return j - i;
}

/** The list of numbers in `s` (separated by spaces and/or commas), or null if anything else is there. */
export function numberList(s: string): number[] | null {
  const out: number[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (isSpace(c) || c === 44) {
      i++;
      continue;
    }
    const n = numberLength(s, i);
    if (n === 0) return null;
    out.push(Number(s.slice(i, i + n)));
    i += n;
  }
  return out;
}

/** A unit-less or px length greater than 0, else null. */
export function plainLength(value: string | undefined): number | null {
  if (value === undefined) return null;
  let v = value.trim();
  if (v.length > 2 && v.slice(-2).toLowerCase() === 'px') v = v.slice(0, -2).trimEnd();
  const first = v.charCodeAt(0);
  if (!(isDigit(first) || first === 46)) return null; // no sign: a length of "+1" or "-1" is not plain
  const n = numberLength(v, 0);
  if (n === 0 || n !== v.length) return null;
  const x = Number(v);
  return Number.isFinite(x) && x > 0 ? x : null;
}

/** `50%`, `100.5%`: a plain percentage (digits and one dot). */
export function isPercentage(value: string): boolean {
  const v = value.trim();
  if (!v.endsWith('%')) return false;
  const body = v.slice(0, -1);
  for (let i = 0; i < body.length; i++) if (!(isDigit(body.charCodeAt(i)) || body[i] === '.')) return false;
  return body.length > 0 && numberLength(body, 0) === body.length;
}

/** Every number in `value` clamped to ±max (the text between numbers is kept as it is). */
export function clampNumbers(value: string, max: number): string {
  let out = '';
  let i = 0;
  while (i < value.length) {
    const n = isDigit(value.charCodeAt(i)) || value[i] === '.' || value[i] === '-' || value[i] === '+' ? numberLength(value, i) : 0;
    if (n === 0) {
      out += value[i];
      i++;
      continue;
    }
    const v = Number(value.slice(i, i + n));
    out += Number.isFinite(v) ? String(Math.max(-max, Math.min(max, v))) : '0';
    i += n;
  }
  return out;
}

/** 2×2 linear part of an affine transform (translation does not change sizes). */
export type Linear = [a: number, b: number, c: number, d: number];

const IDENTITY: Linear = [1, 0, 0, 1];

function multiply(m: Linear, n: Linear): Linear {
  return [m[0] * n[0] + m[2] * n[1], m[1] * n[0] + m[3] * n[1], m[0] * n[2] + m[2] * n[3], m[1] * n[2] + m[3] * n[3]];
}

function linearOf(name: string, args: number[]): Linear | null {
  const [p = 0, q] = args;
  const rad = (p * Math.PI) / 180;
  switch (name) {
    case 'matrix':
      return args.length === 6 ? [args[0]!, args[1]!, args[2]!, args[3]!] : null;
    case 'translate':
      return args.length === 1 || args.length === 2 ? IDENTITY : null;
    case 'scale':
      return args.length === 1 || args.length === 2 ? [p, 0, 0, q ?? p] : null;
    case 'rotate':
      return args.length === 1 || args.length === 3 ? [Math.cos(rad), Math.sin(rad), -Math.sin(rad), Math.cos(rad)] : null;
    case 'skewX':
      return args.length === 1 ? [1, 0, Math.tan(rad), 1] : null;
    case 'skewY':
      return args.length === 1 ? [1, Math.tan(rad), 0, 1] : null;
    default:
      return null;
  }
}

/**
 * How much a transform list can stretch a length at most (an upper bound: the Frobenius
 * norm of its linear part), or null when the list does not parse.
 */
export function transformScale(value: string): number | null {
  let m = IDENTITY;
  let i = 0;
  while (i < value.length) {
    const c = value.charCodeAt(i);
    if (isSpace(c) || c === 44) {
      i++;
      continue;
    }
    const open = value.indexOf('(', i);
    const close = open < 0 ? -1 : value.indexOf(')', open);
    if (close < 0) return null;
    const args = numberList(value.slice(open + 1, close));
    const step = args && linearOf(value.slice(i, open).trim(), args);
    if (!step) return null;
    m = multiply(m, step);
    i = close + 1;
  }
  const norm = Math.hypot(m[0], m[1], m[2], m[3]);
  return Number.isFinite(norm) ? norm : null;
}
