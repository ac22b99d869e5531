// Frame text fitted to its band. One line as large as the band allows; a line too long
// for that is shrunk, or broken in two at a word boundary when two lines come out larger.
// Text smaller than MIN_READABLE_EM is hard to read on a printed code: it is still drawn
// (shrunk to fit), and the design gets a warning saying so.
import type { QrDesign } from '../domain/design/design.ts';
import { frameLayout, type Box } from './frames.ts';
import { fillAttrs } from './paint.ts';
import { num } from './path-builder.ts';
import { lineWidth, shapeLine, type TextLine, UNITS_PER_EM } from './text-paths.ts';

/** Inter's cap height in em: Latin capitals fill 40 % of the band, as they always have. */
const CAP_HEIGHT = 0.727;
const CAP_SHARE_OF_BAND = 0.4;
/** Baseline to baseline of two lines, in em; tall scripts (Devanagari, CJK) need more than 1. */
const LINE_ADVANCE = 1.2;
/** Share of the band height two lines may fill. */
const TWO_LINE_SHARE = 0.84;
/**
 * Smallest readable text, in em per image width: 4.5 % is 2.2 mm on a code printed 5 cm
 * wide, where a capital stands 1.6 mm tall (about 6 pt type).
 */
export const MIN_READABLE_EM = 0.045;

export interface FittedText {
  lines: { line: TextLine; x: number; baseline: number }[];
  /** Pixels per em. */
  em: number;
  /** em / the natural one-line size (1 when the text fits at full size). */
  share: number;
}

/** Lays `text` out in `band`; null for empty text. */
export function fitFrameText(text: string, band: Box): FittedText | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  const natural = (band.h * CAP_SHARE_OF_BAND) / CAP_HEIGHT;
  const one = shapeLine(trimmed);
  if (one.width <= 0) return null;
  const oneEm = Math.min(natural, (band.w * UNITS_PER_EM) / one.width);
  let best = { lines: [one], em: oneEm };
  if (oneEm < natural * 0.8) {
    const two = bestSplit(trimmed);
    if (two) {
      const top = Math.max(CAP_HEIGHT, ...two.map((l) => l.top / UNITS_PER_EM));
      const byHeight = (band.h * TWO_LINE_SHARE) / (top + LINE_ADVANCE);
      const twoEm = Math.min(natural, byHeight, (band.w * UNITS_PER_EM) / Math.max(...two.map((l) => l.width)));
      if (twoEm > oneEm * 1.05) best = { lines: two, em: twoEm };
    }
  }
  return place(best.lines, best.em, band, natural);
}

function place(lines: TextLine[], em: number, band: Box, natural: number): FittedText {
  const k = em / UNITS_PER_EM;
  const top = Math.max(CAP_HEIGHT * UNITS_PER_EM, (lines[0] as TextLine).top) * k;
  const block = top + (lines.length - 1) * LINE_ADVANCE * em;
  const first = band.y + (band.h - block) / 2 + top;
  return {
    lines: lines.map((line, i) => ({ line, x: band.x + (band.w - line.width * k) / 2, baseline: first + i * LINE_ADVANCE * em })),
    em,
    share: em / natural,
  };
}

const words = new Intl.Segmenter('und', { granularity: 'word' });

/**
 * The two lines with the shorter longer line, broken at a word boundary (after a space when
 * the text has spaces; between words otherwise, as in Chinese or Thai). Null for one word.
 * The first line only widens and the second only narrows as the break moves right, so the
 * best break is where they cross: found by bisection, a handful of shapings instead of two
 * for every boundary (a 64-character Chinese text has sixty; shaping them all cost ~100 ms).
 */
function bestSplit(text: string): [TextLine, TextLine] | null {
  const bounds = [...words.segment(text)].map((s) => s.index).filter((i) => i > 0);
  const afterSpace = bounds.filter((i) => /\s/u.test(text[i - 1] as string));
  const candidates = (afterSpace.length ? afterSpace : bounds).filter((at) => text.slice(0, at).trim() && text.slice(at).trim());
  if (candidates.length === 0) return null;
  // Widths only while searching (no outlines built); the chosen break is shaped in full.
  const halves = (k: number): [string, string] => {
    const at = candidates[k] as number;
    return [text.slice(0, at).trim(), text.slice(at).trim()];
  };
  const widths = (k: number): [number, number] => {
    const [a, b] = halves(k);
    return [lineWidth(a), lineWidth(b)];
  };
  // The first candidate whose first line is at least as wide as its second.
  let lo = 0;
  let hi = candidates.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const [a, b] = widths(mid);
    if (a >= b) hi = mid;
    else lo = mid + 1;
  }
  const best = lo > 0 && Math.max(...widths(lo - 1)) <= Math.max(...widths(lo)) ? lo - 1 : lo;
  const [a, b] = halves(best);
  return [shapeLine(a), shapeLine(b)];
}

/** SVG for the frame text: one path per line, filled with the text colour. */
export function frameTextMarkup(text: string, band: Box, color: string): string {
  const fitted = fitFrameText(text, band);
  if (!fitted) return '';
  const k = fitted.em / UNITS_PER_EM;
  return fitted.lines
    .filter(({ line }) => line.d)
    .map(
      ({ line, x, baseline }) =>
        `<path transform="translate(${num(x)} ${num(baseline)}) scale(${num(k)})" d="${line.d}"${fillAttrs(color)}/>`,
    )
    .join('');
}

/** A warning when the design's frame text must be drawn smaller than is easy to read. */
export function frameTextWarning(design: QrDesign): string | null {
  if (design.frameStyle === 'none') return null;
  // Laid out 1000 px wide: the verdict is the same at every resolution.
  const width = 1000;
  const band = frameLayout(design.frameStyle, width).text;
  const fitted = band ? fitFrameText(design.frameText, band) : null;
  if (!fitted || fitted.em >= MIN_READABLE_EM * width) return null;
  const chars = [...design.frameText.trim()].length;
  const fits = Math.max(1, Math.floor((chars * fitted.em) / (MIN_READABLE_EM * width)));
  return `The frame text is too long to read easily: it is drawn at ${Math.round(fitted.share * 100)} % of its normal size. Shorten it to about ${fits} characters.`;
}
