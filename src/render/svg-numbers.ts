// Numbers, lengths and transforms of user SVG, read by hand-written scanners that look at
// each character once: regexes with adjacent quantifiers (`\s*(?:px)?\s*$`, `[^)'"]*\1`)
// backtrack quadratically or worse on crafted input (docs/security.md); these cannot.

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
  return scanNumbers(s, null);
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

/**
 * Numbers of a geometry attribute (`10`, `1.5px`, `50%`, lists), with percentages taken of
 * `viewport`; null when a number has another unit (mm, in, em… would multiply it).
 */
export function geometryNumbers(value: string, viewport = 100): number[] | null {
  return scanNumbers(value, viewport);
}

/** One pass over a number list; with a `viewport`, `px` and `%` units are read too. */
function scanNumbers(value: string, viewport: number | null): number[] | null {
  const out: number[] = [];
  let i = 0;
  while (i < value.length) {
    const c = value.charCodeAt(i);
    if (isSpace(c) || c === 44) {
      i++;
      continue;
    }
    const n = numberLength(value, i);
    if (n === 0) return null;
    let x = Number(value.slice(i, i + n));
    i += n;
    if (viewport !== null && value[i] === '%') {
      x = (x / 100) * viewport;
      i++;
    } else if (viewport !== null && value.slice(i, i + 2).toLowerCase() === 'px') {
      i += 2;
    }
    // A number ends at a separator or where the next one starts ("1-2" is two numbers).
    const next = value.charCodeAt(i);
    if (i < value.length && !isSpace(next) && next !== 44 && next !== 45 && next !== 43 && next !== 46) return null;
    out.push(x);
  }
  return out;
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

/** An affine transform [a b c d e f], as in `matrix(a b c d e f)`. */
type Affine = [a: number, b: number, c: number, d: number, e: number, f: number];

const IDENTITY: Affine = [1, 0, 0, 1, 0, 0];

function multiply(m: Affine, n: Affine): Affine {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

function affineOf(name: string, args: number[]): Affine | null {
  const [p = 0, q, r = 0] = args;
  const rad = (p * Math.PI) / 180;
  switch (name) {
    case 'matrix':
      return args.length === 6 ? (args as Affine) : null;
    case 'translate':
      return args.length === 1 || args.length === 2 ? [1, 0, 0, 1, p, q ?? 0] : null;
    case 'scale':
      return args.length === 1 || args.length === 2 ? [p, 0, 0, q ?? p, 0, 0] : null;
    case 'rotate': {
      if (args.length !== 1 && args.length !== 3) return null;
      const turn: Affine = [Math.cos(rad), Math.sin(rad), -Math.sin(rad), Math.cos(rad), 0, 0];
      const cx = q ?? 0;
      return multiply(multiply([1, 0, 0, 1, cx, r], turn), [1, 0, 0, 1, -cx, -r]);
    }
    case 'skewX':
      return args.length === 1 ? [1, 0, Math.tan(rad), 1, 0, 0] : null;
    case 'skewY':
      return args.length === 1 ? [1, Math.tan(rad), 0, 1, 0, 0] : null;
    default:
      return null;
  }
}

export interface TransformBounds {
  /** How much it can stretch a length at most. */
  scale: number;
  /** How far it moves the origin. */
  shift: number;
}

/** Bounds of a transform list, or null when it does not parse (or overflows). */
export function transformBounds(value: string): TransformBounds | null {
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
    const step = args && affineOf(value.slice(i, open).trim(), args);
    if (!step) return null;
    m = multiply(m, step);
    i = close + 1;
  }
  // The largest singular value of the linear part: exactly how much it can stretch a length.
  const sum = m[0] * m[0] + m[1] * m[1] + m[2] * m[2] + m[3] * m[3];
  const det = m[0] * m[3] - m[1] * m[2];
  const scale = Math.sqrt((sum + Math.sqrt(Math.max(0, sum * sum - 4 * det * det))) / 2);
  const shift = Math.hypot(m[4], m[5]);
  return Number.isFinite(scale) && Number.isFinite(shift) ? { scale, shift } : null;
}

export function transformScale(value: string): number | null {
  return transformBounds(value)?.scale ?? null;
}

/** Numbers each path command takes, and which of them are coordinates (the others are arc radii and flags). */
const PATH_ARGS: Record<string, number> = { m: 2, l: 2, h: 1, v: 1, c: 6, s: 4, q: 4, t: 2, a: 7, z: 0 };

/**
 * The largest absolute coordinate a path reaches (control points and arc radii included),
 * following relative commands from the current point. One pass; stops at the first error,
 * as renderers draw a path up to its first error.
 */
export function pathExtent(d: string): number {
  let x = 0;
  let y = 0;
  let startX = 0;
  let startY = 0;
  let extent = 0;
  let cmd = '';
  const args: number[] = [];
  let i = 0;
  const apply = (): void => {
    const rel = cmd === cmd.toLowerCase();
    const k = cmd.toLowerCase();
    const bx = rel ? x : 0;
    const by = rel ? y : 0;
    if (k === 'h') x = bx + args[0]!;
    else if (k === 'v') y = by + args[0]!;
    else if (k === 'a') {
      extent = Math.max(extent, Math.abs(x) + Math.abs(args[0]!) + Math.abs(args[1]!));
      x = bx + args[5]!;
      y = by + args[6]!;
    } else {
      for (let j = 0; j + 1 < args.length; j += 2) extent = Math.max(extent, Math.abs(bx + args[j]!), Math.abs(by + args[j + 1]!));
      x = bx + args[args.length - 2]!;
      y = by + args[args.length - 1]!;
    }
    extent = Math.max(extent, Math.abs(x), Math.abs(y));
    if (k === 'm') {
      startX = x;
      startY = y;
      cmd = rel ? 'l' : 'L'; // further pairs after a moveto are linetos
    }
    args.length = 0;
  };
  while (i < d.length) {
    const c = d.charCodeAt(i);
    if (isSpace(c) || c === 44) {
      i++;
      continue;
    }
    const letter = d[i]!;
    if (PATH_ARGS[letter.toLowerCase()] !== undefined && !(letter === 'e' || letter === 'E')) {
      if (args.length) break; // a command cut short
      cmd = letter;
      i++;
      if (letter === 'z' || letter === 'Z') {
        x = startX;
        y = startY;
      }
      continue;
    }
    const flag = (cmd === 'a' || cmd === 'A') && (args.length === 3 || args.length === 4);
    // Arc flags are one digit each and may be written without separators ("a1 1 0 011 1").
    const n = flag ? (d[i] === '0' || d[i] === '1' ? 1 : 0) : numberLength(d, i);
    if (n === 0 || cmd === '' || cmd === 'z' || cmd === 'Z') break;
    args.push(Number(d.slice(i, i + n)));
    i += n;
    if (args.length === PATH_ARGS[cmd.toLowerCase()]) apply();
  }
  return Number.isFinite(extent) ? extent : Infinity;
}
