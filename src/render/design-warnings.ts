// Plain-language warnings for designs that phones may fail to scan (or people fail
// to read). Contrast follows WCAG 2: relative luminance, ratio (L1 + 0.05) / (L2 + 0.05).
import type { QrDesign } from '../domain/design.ts';
import { parseHex, type Rgba } from './paint.ts';

/** Below this, camera scanners start to miss modules in ordinary light. */
export const MIN_CONTRAST = 3;
const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 1 };

export function designWarnings(design: QrDesign): string[] {
  const warnings: string[] = [];
  // A transparent code is printed or shown on something; assume white paper.
  const bg = design.bgTransparent ? WHITE : over(parseHex(design.bgColor), WHITE);
  const bgName = design.bgTransparent ? 'white (the background is transparent)' : design.bgColor;
  for (const [label, color] of foregrounds(design)) {
    const fg = over(parseHex(color), bg);
    const ratio = contrastRatio(fg, bg);
    if (ratio < MIN_CONTRAST) {
      warnings.push(
        `The ${label} ${color} has a contrast of ${ratio.toFixed(1)}:1 against the background ${bgName}; phones need at least ${MIN_CONTRAST}:1 to scan reliably.`,
      );
    }
  }
  if (foregrounds(design).some(([, c]) => luminance(over(parseHex(c), bg)) > luminance(bg))) {
    warnings.push('The code is lighter than its background; many phone scanners cannot read inverted codes. Use a dark code on a light background.');
  }
  warnings.push(...frameWarnings(design));
  return warnings;
}

function foregrounds(design: QrDesign): [string, string][] {
  const out: [string, string][] = [[design.isGradient ? 'first gradient colour' : 'code colour', design.color1]];
  if (design.isGradient) out.push(['second gradient colour', design.color2]);
  if (design.customEyeColors) out.push(['eye colour', design.eyeColor]);
  return out;
}

function frameWarnings(design: QrDesign): string[] {
  if (design.frameStyle === 'none') return [];
  const frame = over(parseHex(design.frameColor), WHITE);
  const text = over(parseHex(design.frameTextColor), frame);
  const ratio = contrastRatio(text, frame);
  if (ratio >= MIN_CONTRAST || !design.frameText.trim()) return [];
  return [
    `The frame text colour ${design.frameTextColor} has a contrast of ${ratio.toFixed(1)}:1 against the frame colour ${design.frameColor}; the text will be hard to read.`,
  ];
}

/** Composites a possibly translucent colour over an opaque one. */
function over(c: Rgba, under: Rgba): Rgba {
  const mix = (a: number, b: number) => a * c.a + b * (1 - c.a);
  return { r: mix(c.r, under.r), g: mix(c.g, under.g), b: mix(c.b, under.b), a: 1 };
}

export function luminance(c: Rgba): number {
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}

export function contrastRatio(a: Rgba, b: Rgba): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
