// Frame text as outlines from Inter Bold (SIL OFL, shipped by @fontsource/inter), so
// the SVG needs no font and renders the same in browsers, in resvg and on any machine.
// We lay glyphs out ourselves (advance + pair kerning): opentype.js's full shaper
// trips over Inter's contextual lookups, and plain text needs none of them.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import opentype from 'opentype.js';

/** Subsets in fallback order; each is small and parsed only when a character needs it. */
const SUBSETS = ['latin', 'latin-ext', 'cyrillic', 'greek', 'vietnamese'] as const;

const require = createRequire(import.meta.url);
const fonts = new Map<string, opentype.Font>();

function font(subset: (typeof SUBSETS)[number]): opentype.Font {
  let f = fonts.get(subset);
  if (!f) {
    const file = require.resolve(`@fontsource/inter/files/inter-${subset}-700-normal.woff`);
    const buf = readFileSync(file);
    f = opentype.parse(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
    fonts.set(subset, f);
  }
  return f;
}

export interface TextOutline {
  /** Path data in font units, baseline at y = 0, y pointing down. */
  d: string;
  /** Advance width in font units. */
  width: number;
  unitsPerEm: number;
  /** Height of capitals in font units, for vertical centring. */
  capHeight: number;
}

const cache = new Map<string, TextOutline>();
const CACHE_LIMIT = 256;

/** Outline of `text` (cached: frame texts repeat across renders). */
export function textOutline(text: string): TextOutline {
  const hit = cache.get(text);
  if (hit) return hit;
  const outline = layout(text);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(text, outline);
  return outline;
}

function layout(text: string): TextOutline {
  const base = font('latin');
  const parts: string[] = [];
  let x = 0;
  let prev: { font: opentype.Font; glyph: opentype.Glyph } | null = null;
  for (const ch of text) {
    const found = glyphFor(ch);
    if (!found) {
      x += base.unitsPerEm * 0.3; // unknown character: a gap, never a tofu box
      prev = null;
      continue;
    }
    if (prev && prev.font === found.font) x += kerning(found.font, prev.glyph, found.glyph);
    parts.push(glyphPath(found.glyph, x));
    x += found.glyph.advanceWidth ?? 0;
    prev = found;
  }
  const os2 = base.tables.os2 as { sCapHeight?: number } | undefined;
  return { d: parts.join(''), width: x, unitsPerEm: base.unitsPerEm, capHeight: os2?.sCapHeight ?? base.unitsPerEm * 0.7 };
}

function glyphFor(ch: string): { font: opentype.Font; glyph: opentype.Glyph } | null {
  if (/\s/.test(ch)) ch = ' ';
  for (const subset of SUBSETS) {
    const f = font(subset);
    const glyph = f.charToGlyph(ch);
    if (glyph.index > 0) return { font: f, glyph };
  }
  return null;
}

function kerning(f: opentype.Font, left: opentype.Glyph, right: opentype.Glyph): number {
  try {
    return f.getKerningValue(left, right);
  } catch {
    return 0; // a lookup type opentype.js cannot read: no kerning for this pair
  }
}

function glyphPath(glyph: opentype.Glyph, dx: number): string {
  let d = '';
  const X = (v: number) => Math.round(v + dx);
  const Y = (v: number) => Math.round(-v);
  for (const c of glyph.path.commands) {
    if (c.type === 'M' || c.type === 'L') d += `${c.type}${X(c.x)} ${Y(c.y)}`;
    else if (c.type === 'Q') d += `Q${X(c.x1)} ${Y(c.y1)} ${X(c.x)} ${Y(c.y)}`;
    else if (c.type === 'C') d += `C${X(c.x1)} ${Y(c.y1)} ${X(c.x2)} ${Y(c.y2)} ${X(c.x)} ${Y(c.y)}`;
    else d += 'Z';
  }
  return d;
}
