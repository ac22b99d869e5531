// CSS of user SVG logos, rebuilt from an allow-list. A deny-list of "things that load"
// misses image-set(), image(), cross-fade(), escapes and whatever CSS adds next (docs/decisions/logo-limits.md);
// here a declaration survives only if its property is a presentation property and its
// value is made of numbers, units, colours, keywords, rgb()/hsl() and url(#fragment).
// Every scanner below looks at each character a bounded number of times.

/** Presentation properties a logo may set in CSS (the same as the attribute allow-list). */
export const CSS_PROPERTIES = new Set([
  'opacity',
  'display',
  'visibility',
  'color',
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-opacity',
  'clip-path',
  'clip-rule',
  'mask',
  'filter',
  'stop-color',
  'stop-opacity',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'letter-spacing',
  'vector-effect',
  'paint-order',
  'shape-rendering',
  'mix-blend-mode',
  'isolation',
  'flood-color',
  'flood-opacity',
  'color-interpolation-filters',
]);

const COLOUR_FUNCTIONS = new Set(['rgb', 'rgba', 'hsl', 'hsla']);

export interface CleanValue {
  /** The value as it may be written out. */
  text: string;
  /** Ids named by url(#id) in it. */
  refs: string[];
}

const isIdentChar = (c: string) => /[A-Za-z0-9_-]/.test(c);
const isNumberChar = (c: string) => /[0-9.+%-]/.test(c);
const isFragmentChar = (c: string) => /[\w.:-]/.test(c);

/**
 * Reads a CSS or presentation-attribute value. Returns null when it holds anything outside
 * the allow-list: another function, a backslash escape, a string with odd characters, etc.
 */
export function cleanValue(value: string): CleanValue | null {
  const refs: string[] = [];
  let out = '';
  let i = 0;
  const v = value.trim();
  while (i < v.length) {
    const c = v[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f') {
      while (i < v.length && /\s/.test(v[i]!)) i++;
      out += ' ';
      continue;
    }
    if (c === ',' || c === '/') {
      out += c;
      i++;
      continue;
    }
    if (c === '#') {
      let j = i + 1;
      while (j < v.length && /[0-9A-Fa-f]/.test(v[j]!)) j++;
      if (![3, 4, 6, 8].includes(j - i - 1)) return null;
      out += v.slice(i, j);
      i = j;
      continue;
    }
    if (c === '"' || c === "'") {
      // Quoted words (font family names) only: letters, digits, spaces, hyphens.
      const end = v.indexOf(c, i + 1);
      if (end < 0 || !/^[\w -]*$/.test(v.slice(i + 1, end))) return null;
      out += v.slice(i, end + 1);
      i = end + 1;
      continue;
    }
    if (isNumberChar(c)) {
      let j = i;
      while (j < v.length && (isNumberChar(v[j]!) || /[A-Za-z]/.test(v[j]!))) j++;
      out += v.slice(i, j);
      i = j;
      continue;
    }
    if (isIdentChar(c)) {
      let j = i;
      while (j < v.length && isIdentChar(v[j]!)) j++;
      const word = v.slice(i, j);
      if (v[j] !== '(') {
        out += word;
        i = j;
        continue;
      }
      const close = v.indexOf(')', j);
      if (close < 0) return null;
      const inner = v.slice(j + 1, close);
      const name = word.toLowerCase();
      if (name === 'url') {
        const id = fragmentOf(inner);
        if (id === null) return null;
        refs.push(id);
        out += `url(#${id})`;
      } else if (COLOUR_FUNCTIONS.has(name) && /^[\d\s.,%/+-]*$/.test(inner)) {
        out += `${name}(${inner.trim()})`;
      } else {
        return null;
      }
      i = close + 1;
      continue;
    }
    return null; // backslash, @, <, !, or anything else
  }
  return { text: out.trim(), refs };
}

/** `#id`, `'#id'` or `"#id"` inside url(...): the id, else null. */
function fragmentOf(inner: string): string | null {
  let s = inner.trim();
  const q = s[0];
  if (q === '"' || q === "'") {
    if (s.length < 2 || s[s.length - 1] !== q) return null;
    s = s.slice(1, -1).trim();
  }
  if (s[0] !== '#' || s.length < 2) return null;
  for (let i = 1; i < s.length; i++) if (!isFragmentChar(s[i]!)) return null;
  return s.slice(1);
}

export interface Declaration {
  property: string;
  value: CleanValue;
}

/** `prop: value; prop: value` → the allowed declarations (the others are dropped one by one). */
export function cleanDeclarations(css: string): Declaration[] {
  const out: Declaration[] = [];
  for (const part of stripComments(css).split(';')) {
    const colon = part.indexOf(':');
    if (colon < 0) continue;
    const property = part.slice(0, colon).trim().toLowerCase();
    if (!CSS_PROPERTIES.has(property)) continue;
    const value = cleanValue(part.slice(colon + 1));
    if (value !== null && value.text !== '') out.push({ property, value });
  }
  return out;
}

export function serializeDeclarations(decls: Declaration[]): string {
  return decls.map((d) => `${d.property}:${d.value.text}`).join(';');
}

/** A compound selector: optional type (or `*`), then classes and ids. */
export interface Compound {
  type: string | null;
  classes: string[];
  ids: string[];
}

export interface Rule {
  /** Each selector of the list, as its compounds from left to right (combinators kept as text in `text`). */
  selectors: { text: string; last: Compound }[];
  declarations: Declaration[];
}

const COMPOUND_RE = /^(\*|[A-Za-z][\w-]*)?((?:[.#][A-Za-z_-][\w-]*)*)$/;

/** `g > .a #b`: validated and normalised, with its rightmost compound; null when not simple. */
function cleanSelector(selector: string): { text: string; last: Compound } | null {
  const tokens = selector.replace(/>/g, ' > ').trim().split(/\s+/);
  if (tokens.length === 0 || tokens[0] === '' || tokens[0] === '>' || tokens[tokens.length - 1] === '>') return null;
  let last: Compound | null = null;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t === '>') {
      if (tokens[i - 1] === '>') return null;
      continue;
    }
    const m = COMPOUND_RE.exec(t);
    if (!m || t === '') return null;
    const parts = (m[2] ?? '').split(/(?=[.#])/).filter((p) => p !== '');
    last = {
      type: m[1] === undefined || m[1] === '*' ? null : m[1],
      classes: parts.filter((p) => p[0] === '.').map((p) => p.slice(1)),
      ids: parts.filter((p) => p[0] === '#').map((p) => p.slice(1)),
    };
  }
  return last ? { text: tokens.join(' ').replace(/ > /g, '>'), last } : null;
}

/**
 * A <style> sheet → its plain rules with allowed declarations. At-rules (@import,
 * @font-face, @media…) are dropped with their block; so is a rule whose selector is not
 * a list of simple selectors (type, class, id, `*`, descendant and child combinators).
 */
export function cleanStyleSheet(css: string): Rule[] {
  const s = stripComments(css);
  const next = nextFinder(s);
  const rules: Rule[] = [];
  let i = 0;
  while (i < s.length) {
    const open = next('{', i);
    const semicolon = next(';', i);
    const at = next('@', i);
    if (at >= 0 && (open < 0 || at < open)) {
      // An at-rule ends at its `;` or with its (possibly nested) block, whichever comes first.
      if (semicolon >= 0 && (open < 0 || semicolon < open)) {
        i = semicolon + 1;
        continue;
      }
      if (open < 0) break;
      i = skipBlock(s, open);
      continue;
    }
    if (open < 0) break;
    const end = next('}', open);
    const nested = next('{', open + 1);
    if (end < 0) break;
    if (nested >= 0 && nested < end) {
      i = skipBlock(s, open);
      continue;
    }
    const selectors = s.slice(i, open).split(',').map(cleanSelector);
    const declarations = cleanDeclarations(s.slice(open + 1, end));
    if (selectors.every((x) => x !== null) && declarations.length) rules.push({ selectors: selectors as Rule['selectors'], declarations });
    i = end + 1;
  }
  return rules;
}

/**
 * indexOf with memory: positions only move forward, so a character's next occurrence is
 * searched again only once it has been passed, and the sheet is scanned a bounded number of times.
 */
function nextFinder(s: string): (ch: string, from: number) => number {
  const found = new Map<string, number>();
  return (ch, from) => {
    const known = found.get(ch);
    if (known !== undefined && (known >= from || known < 0)) return known;
    const at = s.indexOf(ch, from);
    found.set(ch, at);
    return at;
  };
}

export function serializeStyleSheet(rules: Rule[]): string {
  return rules.map((r) => `${r.selectors.map((x) => x.text).join(',')}{${serializeDeclarations(r.declarations)}}`).join('');
}

/** Index just past the block opened at `open`, counting nested braces. */
function skipBlock(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    if (s[i] === '{') depth++;
    else if (s[i] === '}' && --depth === 0) return i + 1;
  }
  return s.length;
}

function stripComments(css: string): string {
  let out = '';
  let i = 0;
  for (;;) {
    const start = css.indexOf('/*', i);
    if (start < 0) return out + css.slice(i);
    out += css.slice(i, start) + ' ';
    const end = css.indexOf('*/', start + 2);
    if (end < 0) return out;
    i = end + 2;
  }
}

/** Whether an element could match a selector whose rightmost compound is `c` (ancestors are not checked: an over-approximation). */
export function mayMatch(c: Compound, name: string, id: string | undefined, classes: readonly string[]): boolean {
  if (c.type !== null && c.type !== name) return false;
  if (c.ids.some((x) => x !== id)) return false;
  return c.classes.every((x) => classes.includes(x));
}
