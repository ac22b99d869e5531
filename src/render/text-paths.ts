// Frame text as outlines, so the SVG needs no font and renders the same in browsers, in
// resvg, in the PDF and on any machine. Text in any script: each grapheme is drawn by the
// first bundled font that has it (Inter, then Noto fonts: frame-text-coverage.ts), the
// line is split into runs of one font and one bidi level (Unicode bidi via bidi-js), each
// run is shaped by HarfBuzz (Arabic joining, Indic conjuncts, Thai marks, kerning,
// emoji sequences), and the runs are put in visual order.
import bidiJs, { type Bidi } from 'bidi-js';
import type { Font } from 'harfbuzzjs';
import { readFont } from './font-source.ts';
import { type FrameFontFile, drawableText, fileForCluster, graphemes } from './frame-text-coverage.ts';
import { getShaper } from './shaper-source.ts';
import { woffToSfnt } from './woff.ts';

/** Outlines are in thousandths of an em, whatever each font's own units. */
export const UNITS_PER_EM = 1000;

export interface TextLine {
  /** Path data, baseline at y = 0, y pointing down. */
  d: string;
  /** Advance width. */
  width: number;
  /** Highest ink above the baseline (≥ 0). */
  top: number;
  /** Lowest ink below the baseline (≥ 0). */
  bottom: number;
  /** Glyphs in drawing order (left to right): font file and glyph id, for tests and fitting. */
  glyphs: { file: string; id: number; x: number }[];
}

interface LoadedFont {
  font: Font;
  scale: number;
  outlines: Map<number, { type: string; values: number[] }[]>;
}

const fonts = new Map<string, LoadedFont>();

function loaded(file: FrameFontFile): LoadedFont {
  let f = fonts.get(file.file);
  if (!f) {
    const hb = getShaper();
    const face = new hb.Face(new hb.Blob(woffToSfnt(readFont(file.file))));
    f = { font: new hb.Font(face), scale: UNITS_PER_EM / face.upem, outlines: new Map() };
    fonts.set(file.file, f);
  }
  return f;
}

const cache = new Map<string, TextLine>();
const widths = new Map<string, number>();
const CACHE_LIMIT = 256;

function remember<V>(map: Map<string, V>, key: string, value: V): V {
  if (map.size >= CACHE_LIMIT) map.delete(map.keys().next().value as string);
  map.set(key, value);
  return value;
}

/** One line of `text`, shaped and in visual order (cached: frame texts repeat across renders). */
export function shapeLine(text: string): TextLine {
  return cache.get(text) ?? remember(cache, text, layout(drawableText(text), true));
}

/** The advance width shapeLine(text) has, without building its outlines (for choosing line breaks). */
export function lineWidth(text: string): number {
  return cache.get(text)?.width ?? widths.get(text) ?? remember(widths, text, layout(drawableText(text), false).width);
}

interface Run {
  file: FrameFontFile | null;
  level: number;
  start: number;
  end: number;
}

// TypeScript reads bidi-js as CommonJS; in Node and in bundlers alike its default export is the factory.
const bidiFactory = bidiJs as unknown as () => Bidi;
let bidi: Bidi | null = null;

function layout(text: string, outlines: boolean): TextLine {
  bidi ??= bidiFactory();
  const { levels } = bidi.getEmbeddingLevels(text);
  const runs: Run[] = [];
  let prev: FrameFontFile | null = null;
  for (const { segment, index } of graphemes.segment(text)) {
    const file = fileForCluster(segment, prev);
    const level = levels[index] ?? 0;
    const last = runs[runs.length - 1];
    if (last && last.file === file && last.level === level) last.end = index + segment.length;
    else runs.push({ file, level, start: index, end: index + segment.length });
    if (file) prev = file;
  }
  const out: TextLine = { d: '', width: 0, top: 0, bottom: 0, glyphs: [] };
  for (const run of visualOrder(runs)) drawRun(text, run, out, outlines);
  return out;
}

/** Unicode bidi rule L2 applied to runs of one level: reverse from the highest level down to the lowest odd one. */
function visualOrder(runs: Run[]): Run[] {
  const out = [...runs];
  if (out.length === 0) return out;
  const max = Math.max(...out.map((r) => r.level));
  const min = Math.min(...out.map((r) => r.level));
  const lowestOdd = min % 2 === 1 ? min : min + 1;
  for (let level = max; level >= lowestOdd; level--) {
    for (let i = 0; i < out.length; ) {
      if ((out[i] as Run).level < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < out.length && (out[j] as Run).level >= level) j++;
      out.splice(i, j - i, ...out.slice(i, j).reverse());
      i = j;
    }
  }
  return out;
}

function drawRun(text: string, run: Run, out: TextLine, outlines: boolean): void {
  if (!run.file) {
    out.width += UNITS_PER_EM * 0.3; // a character no font has: validation refuses it; older designs get a gap
    return;
  }
  const hb = getShaper();
  const f = loaded(run.file);
  const glyphs = new hb.Buffer();
  // The whole line is context (Arabic joins across a font change), the run is what is shaped.
  glyphs.addText(text, run.start, run.end - run.start);
  glyphs.setDirection(run.level % 2 === 1 ? hb.Direction.RTL : hb.Direction.LTR);
  glyphs.guessSegmentProperties();
  hb.shape(f.font, glyphs);
  const infos = glyphs.getGlyphInfos();
  const positions = glyphs.getGlyphPositions();
  infos.forEach((info, i) => {
    const pos = positions[i] as (typeof positions)[number];
    // A character this font lacks inside a cluster it draws (a skin-tone modifier the
    // monochrome emoji font cannot combine): left out, with no gap.
    if (info.codepoint === 0) return;
    if (outlines) {
      const x = out.width + pos.xOffset * f.scale;
      out.d += glyphPath(f, info.codepoint, x, pos.yOffset * f.scale, out);
      out.glyphs.push({ file: run.file?.file ?? '', id: info.codepoint, x: Math.round(x) });
    }
    out.width += pos.xAdvance * f.scale;
  });
}

function glyphPath(f: LoadedFont, id: number, dx: number, dy: number, out: TextLine): string {
  let commands = f.outlines.get(id);
  if (!commands) {
    commands = f.font.glyphToJson(id);
    f.outlines.set(id, commands);
  }
  let d = '';
  for (const c of commands) {
    d += c.type;
    for (let i = 0; i + 1 < c.values.length; i += 2) {
      const x = Math.round((c.values[i] as number) * f.scale + dx);
      const y = Math.round(-((c.values[i + 1] as number) * f.scale + dy));
      out.top = Math.max(out.top, -y);
      out.bottom = Math.max(out.bottom, y);
      d += `${i ? ' ' : ''}${x} ${y}`;
    }
  }
  return d;
}
