// The camera test's designs: every value of the main options, and every pair of
// them, in a seeded pairwise covering array (the same designs on every run), plus a
// few palettes chosen to sit near the 3:1 contrast limit.
import {
  CORNER_STYLES,
  DEFAULT_DESIGN,
  DOT_STYLES,
  ERROR_CORRECTION_LEVELS,
  FRAME_STYLES,
  type QrDesign,
} from '../../src/domain/design/design.ts';
import { LOGO_SVG_DATA_URL } from '../render/fixtures.ts';
import { SHORT_URLS, pairwiseRows } from '../render/scan-matrix.ts';

const LOGOS = ['none', 'preset', 'custom'] as const;

export interface Palette {
  name: string;
  colors: Partial<QrDesign>;
}

export const PALETTES: readonly Palette[] = [
  { name: 'black on white', colors: { color1: '#000000', bgColor: '#ffffff' } },
  {
    name: 'blue→purple gradient',
    colors: { isGradient: true, gradientType: 'linear', gradientRotation: 45, color1: '#1d4ed8', color2: '#9333ea', bgColor: '#ffffff' },
  },
  {
    name: 'green on mint, radial',
    colors: { isGradient: true, gradientType: 'radial', color1: '#065f46', color2: '#0f766e', bgColor: '#f0fdf4' },
  },
  { name: 'red, dark eyes', colors: { color1: '#b91c1c', bgColor: '#ffffff', customEyeColors: true, eyeColor: '#111827' } },
  { name: 'navy, transparent', colors: { color1: '#1e3a8a', bgTransparent: true } },
  { name: 'grey 3.0:1', colors: { color1: '#949494', bgColor: '#ffffff' } },
  { name: 'orange on cream 3.1:1', colors: { color1: '#d97706', bgColor: '#fffbeb' } },
];

/** The option values each design is labelled with, so rates can be split by them. */
export const FACTORS = {
  dotsStyle: DOT_STYLES,
  cornerSquare: CORNER_STYLES,
  cornerDot: CORNER_STYLES,
  errorCorrectionLevel: ERROR_CORRECTION_LEVELS,
  logo: LOGOS,
  frameStyle: FRAME_STYLES,
  palette: PALETTES.map((p) => p.name),
} as const;
export type Factor = keyof typeof FACTORS;
const FACTOR_NAMES = Object.keys(FACTORS) as Factor[];

export interface CameraDesign {
  data: string;
  design: QrDesign;
  labels: Record<Factor, string>;
}

/** The pairwise designs plus `extra` seeded-random ones. */
export function cameraDesigns(extra: number, seed = 0xca3e7a): CameraDesign[] {
  const sizes = FACTOR_NAMES.map((f) => FACTORS[f].length);
  return pairwiseRows(sizes, seed, extra).map((row, i) => {
    const labels = Object.fromEntries(FACTOR_NAMES.map((f, k) => [f, FACTORS[f][row[k]!]!])) as Record<Factor, string>;
    return { data: SHORT_URLS[i % SHORT_URLS.length]!, design: toDesign(labels, row[FACTOR_NAMES.indexOf('palette')]!), labels };
  });
}

function toDesign(l: Record<Factor, string>, palette: number): QrDesign {
  return {
    ...DEFAULT_DESIGN,
    ...PALETTES[palette]!.colors,
    dotsStyle: l.dotsStyle as QrDesign['dotsStyle'],
    cornerSquare: l.cornerSquare as QrDesign['cornerSquare'],
    cornerDot: l.cornerDot as QrDesign['cornerDot'],
    errorCorrectionLevel: l.errorCorrectionLevel as QrDesign['errorCorrectionLevel'],
    frameStyle: l.frameStyle as QrDesign['frameStyle'],
    presetLogo: l.logo === 'preset' ? 'link' : 'none',
    customLogoUrl: l.logo === 'custom' ? LOGO_SVG_DATA_URL : null,
    logoSize: 0.4,
  };
}

/** The ceiling: a plain black square-module code of the same content and error correction. */
export function plainDesign(design: QrDesign): QrDesign {
  return { ...DEFAULT_DESIGN, errorCorrectionLevel: design.errorCorrectionLevel };
}

/** A plain square-module code in the design's own colours (gradient, eye colour, background included). */
export function plainInColours(design: QrDesign): QrDesign {
  const { color1, color2, isGradient, gradientType, gradientRotation, bgColor, bgTransparent, customEyeColors, eyeColor } = design;
  return {
    ...plainDesign(design),
    color1,
    color2,
    isGradient,
    gradientType,
    gradientRotation,
    bgColor,
    bgTransparent,
    customEyeColors,
    eyeColor,
  };
}
