// Plain-language warnings for designs that phones may fail to scan (or people fail
// to read). Contrast follows WCAG 2: relative luminance, ratio (L1 + 0.05) / (L2 + 0.05).
import { ERROR_CORRECTION_LEVELS, type QrDesign } from '../domain/design/design.ts';
import { frameTextWarning } from './frame-text.ts';
import { hasLogo, logoBox } from './logo-layer.ts';
import { parseHex, type Rgba } from './paint.ts';
import { alignmentCentres, qrVersion } from './qr-matrix.ts';

/** Below this, camera scanners start to miss modules in ordinary light. */
export const MIN_CONTRAST = 3;
/**
 * Below this (WCAG's AA figure), codes still scan in good light, but the camera test
 * (npm run scan-lab) shows them failing more often than darker codes once the picture
 * is small, tilted, noisy or unevenly lit.
 */
export const COMFORTABLE_CONTRAST = 4.5;
const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 1 };

/** Warnings for `design`; with `data` (the text the code encodes) also those that depend on the code's size. */
export function designWarnings(design: QrDesign, data?: string): string[] {
  return [
    ...colourWarnings(design),
    ...styleWarnings(design),
    ...(data === undefined ? [] : logoWarnings(design, data)),
    ...frameWarnings(design),
  ];
}

/** Contrast of the code against its background, and inverted codes. */
export function colourWarnings(design: QrDesign): string[] {
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
    } else if (ratio < COMFORTABLE_CONTRAST) {
      warnings.push(
        `The ${label} ${color} has a contrast of only ${ratio.toFixed(1)}:1 against the background ${bgName}; it scans in good light, but phones often miss it in dim or uneven light or from a distance. A darker colour (${COMFORTABLE_CONTRAST}:1 or more) scans reliably.`,
      );
    }
  }
  if (foregrounds(design).some(([, c]) => luminance(over(parseHex(c), bg)) > luminance(bg))) {
    warnings.push(
      'The code is lighter than its background; many phone scanners cannot read inverted codes. Use a dark code on a light background.',
    );
  }
  return warnings;
}

/** Styles that the camera test (npm run scan-lab) finds clearly less reliable than the rest. */
function styleWarnings(design: QrDesign): string[] {
  const warnings: string[] = [];
  if (design.dotsStyle === 'dots') {
    warnings.push(
      "Round dots ('dots') leave gaps between modules that phones misread when the code is printed small or seen at an angle; 'rounded' or 'extra-rounded' dots keep a soft look and scan more reliably.",
    );
  }
  if (design.cornerSquare === 'dot') {
    warnings.push(
      "Circular corner squares ('dot') are harder for phone scanners to find when the code is small or seen at an angle; 'extra-rounded' corner squares keep a soft look and scan more reliably.",
    );
  }
  return warnings;
}

/**
 * From version 7 a code has alignment patterns inside it (for versions 7–13 one at the
 * very centre), where the logo sits. ZBar fits its sampling grid to them and, searching
 * for a hidden one, takes a stretch of the logo for it: it then misreads the whole code,
 * even a clean image, about half the time (scan-lab); zxing and jsQR do not mind.
 */
function logoWarnings(design: QrDesign, data: string): string[] {
  if (!hasLogo(design)) return [];
  const version = qrVersion(data, design.errorCorrectionLevel);
  if (version === null || version < 7) return [];
  const { start, side } = logoBox(17 + 4 * version, design.errorCorrectionLevel, design.logoSize);
  const end = start + side;
  const covered = alignmentCentres(version).some(([x, y]) => x + 2 >= start && x - 2 < end && y + 2 >= start && y - 2 < end);
  if (!covered) return [];
  const levels = ERROR_CORRECTION_LEVELS.slice(0, ERROR_CORRECTION_LEVELS.indexOf(design.errorCorrectionLevel));
  const smaller = levels.filter((l) => (qrVersion(data, l) ?? 99) < 7).at(-1);
  const remedy = smaller
    ? `Error-correction level ${smaller}${smaller === 'L' ? '' : ' or lower'}, or no logo, avoids this.`
    : 'Shorter content or no logo avoids this.';
  return [
    `At error-correction level ${design.errorCorrectionLevel} this content makes a large code (version ${version}) whose logo covers one of its alignment marks; some scanner apps (those built on ZBar) then cannot read it. ${remedy}`,
  ];
}

function foregrounds(design: QrDesign): [string, string][] {
  const out: [string, string][] = [[design.isGradient ? 'first gradient colour' : 'code colour', design.color1]];
  if (design.isGradient) out.push(['second gradient colour', design.color2]);
  if (design.customEyeColors) out.push(['eye colour', design.eyeColor]);
  return out;
}

function frameWarnings(design: QrDesign): string[] {
  if (design.frameStyle === 'none') return [];
  const tooLong = frameTextWarning(design);
  const frame = over(parseHex(design.frameColor), WHITE);
  const text = over(parseHex(design.frameTextColor), frame);
  const ratio = contrastRatio(text, frame);
  if (ratio >= MIN_CONTRAST || !design.frameText.trim()) return tooLong ? [tooLong] : [];
  return [
    ...(tooLong ? [tooLong] : []),
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
