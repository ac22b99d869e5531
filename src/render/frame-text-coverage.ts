// Which characters frame text can draw: those of a bundled font (frame-font-coverage.ts),
// plus invisible format characters (joiners, variation selectors, bidi marks) that
// shaping consumes. Pure data, no font loaded: request validation uses it.
import { covers, decodeCoverage } from './font-coverage.ts';
import { FRAME_FONT_FILES } from './frame-font-coverage.ts';

export const graphemes = new Intl.Segmenter('und', { granularity: 'grapheme' });
const LETTER = /\p{L}/u;
const SKIN_TONE = /\p{Emoji_Modifier}/gu;

export interface FrameFontFile {
  file: string;
  ranges: Uint32Array;
}

let decoded: FrameFontFile[] | null = null;

/** Font files in fallback order, with the code points each draws. */
export function frameFontFiles(): readonly FrameFontFile[] {
  decoded ??= FRAME_FONT_FILES.map((f) => ({ file: f.file, ranges: decodeCoverage(f.coverage) }));
  return decoded;
}

const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cc}]/u;
const SPACE = /\s/u;

/** Needs no glyph of its own: spaces become advances, format characters vanish in shaping. */
export function needsNoGlyph(ch: string): boolean {
  return SPACE.test(ch) || INVISIBLE.test(ch);
}

/** The first file, in fallback order, that draws `cp`; null when none does. */
export function fileFor(cp: number): FrameFontFile | null {
  for (const f of frameFontFiles()) if (covers(f.ranges, cp)) return f;
  return null;
}

/** The text as it is drawn: one colour cannot show a skin tone (the monochrome emoji font draws a modifier as a blank). */
export function drawableText(text: string): string {
  return text.replace(SKIN_TONE, '');
}

/**
 * The font for a grapheme cluster. Letters take the first font that has the whole cluster;
 * spaces, digits and punctuation stay in the font before them when it has them, so a run
 * of Arabic words is shaped as one. Not after an emoji: the emoji font's space is more
 * than an em wide and its digits are keycap-style, so "Scan 👋 me" had a gap of three
 * spaces after the hand.
 */
export function fileForCluster(cluster: string, prev: FrameFontFile | null): FrameFontFile | null {
  const cps = [...cluster].filter((ch) => !needsNoGlyph(ch)).map((ch) => ch.codePointAt(0) as number);
  const all = frameFontFiles();
  const textFont = prev && !isEmojiFont(prev) ? prev : null;
  if (cps.length === 0) return textFont ?? all[0] ?? null;
  const hasAll = (f: FrameFontFile) => cps.every((cp) => covers(f.ranges, cp));
  if (textFont && !LETTER.test(cluster) && hasAll(textFont)) return textFont;
  return all.find(hasAll) ?? fileFor(cps[0] as number);
}

function isEmojiFont(file: FrameFontFile): boolean {
  return file.file.includes('/noto-emoji-');
}

/**
 * The font files drawing `text` reads, for a renderer that must fetch them first (the
 * browser's live preview: fetch these, install them with setFontSource, then render).
 */
export function frameFontFilesFor(text: string): string[] {
  const files = new Set<string>();
  let prev: FrameFontFile | null = null;
  for (const { segment } of graphemes.segment(drawableText(text))) {
    const file = fileForCluster(segment, prev);
    if (file) files.add(file.file);
    prev = file ?? prev;
  }
  return [...files];
}

/** Distinct characters of `text` that no bundled font draws, in order of appearance. */
export function undrawableCharacters(text: string): string[] {
  const out = new Set<string>();
  for (const ch of text) {
    if (needsNoGlyph(ch)) continue;
    if (!fileFor(ch.codePointAt(0) as number)) out.add(ch);
  }
  return [...out];
}

/** `U+1F600 "😀"`: the code point, and the character itself when it is printable. */
export function describeCharacter(ch: string): string {
  const cp = (ch.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0');
  return /\p{C}/u.test(ch) ? `U+${cp}` : `U+${cp} "${ch}"`;
}
