// The decode matrix: every option value, and every pair of values of the main
// options, appears in at least one case (a greedy pairwise covering array built with
// a seeded random generator, so the cases are the same on every run). Secondary
// options (palettes, rotation, preset icon, logo size and margin, frame text) rotate
// through the cases so each of their values is decoded too.
import {
  CORNER_STYLES,
  DEFAULT_DESIGN,
  DOT_STYLES,
  ERROR_CORRECTION_LEVELS,
  FRAME_STYLES,
  PRESET_LOGOS,
  type QrDesign,
} from '../../src/domain/design/design.ts';
import { LOGO_SVG_DATA_URL, logoPngDataUrl } from './fixtures.ts';

const FILLS = ['solid', 'linear', 'radial'] as const;
const LOGOS = ['none', 'preset', 'custom'] as const;

const FACTORS = [DOT_STYLES, CORNER_STYLES, CORNER_STYLES, FILLS, LOGOS, ERROR_CORRECTION_LEVELS, FRAME_STYLES] as const;
type Row = number[];

/** Palettes with adequate contrast (each ≥ 3:1 against its background). */
const PALETTES: Partial<QrDesign>[] = [
  { color1: '#000000', color2: '#1f2937', bgColor: '#ffffff' },
  { color1: '#1d4ed8', color2: '#9333ea', bgColor: '#ffffff', frameColor: '#1d4ed8' },
  { color1: '#065f46', color2: '#0f766e', bgColor: '#f0fdf4', frameColor: '#065f46' },
  { color1: '#b91c1c', color2: '#111827', bgColor: '#ffffff', customEyeColors: true, eyeColor: '#111827' },
  { color1: '#111827', color2: '#4338ca', bgTransparent: true, frameColor: '#4338ca', frameTextColor: '#fef3c7' },
  {
    color1: '#7c2d12',
    color2: '#9a3412',
    bgColor: '#fffbeb',
    customEyeColors: true,
    eyeColor: '#c2410c',
    frameColor: '#fde68a',
    frameTextColor: '#7c2d12',
  },
  { color1: '#000000cc', color2: '#312e81', bgColor: '#ffffff', frameColor: '#0ea5e9', frameTextColor: '#082f49' },
];
const ROTATIONS = [0, 45, 90, 135, 180, 225, 270, 315, 360];
const PRESETS = PRESET_LOGOS.filter((p) => p !== 'none');
const LOGO_SIZES = [0.1, 0.2, 0.3, 0.4, 0.5];
const LOGO_MARGINS = [0, 10, 30, 60, 100];
const RESOLUTIONS = [1000, 1000, 1200, 2500, 800];
/** Short links of different lengths, so several QR versions are drawn. */
export const SHORT_URLS = [
  'http://localhost:3000/r/Ab3dE9z',
  'https://qr.example.com/r/Zx81Qp0',
  'https://links.a-rather-long-company-domain.example/r/k9T2mQa',
];
// Long text that still reads (two lines); 64 characters with no space is too small to read and
// warns (test/render/frame-text.test.ts). Other scripts: test/render/frame-text.test.ts.
const FRAME_TEXTS = [
  'Scan me',
  'SCAN FOR THE MENU',
  'Über Straße – café',
  'Сканируй меня',
  'Scan to see our whole spring menu and order at your table',
  '</text><script>alert(1)</script>&"',
  'امسح · 扫码 · स्कैन',
];

export interface MatrixCase {
  name: string;
  data: string;
  design: QrDesign;
}

export function decodeMatrix(extraRows: number): MatrixCase[] {
  const rows = pairwiseRows(
    FACTORS.map((f) => f.length),
    0x5eed,
    extraRows,
  );
  return rows.map((row, i) => toCase(row, i));
}

function toCase(row: Row, i: number): MatrixCase {
  const [dot, sq, cd, fill, logo, ec, frame] = row.map((v, f) => FACTORS[f]![v]!) as [
    QrDesign['dotsStyle'],
    QrDesign['cornerSquare'],
    QrDesign['cornerDot'],
    (typeof FILLS)[number],
    (typeof LOGOS)[number],
    QrDesign['errorCorrectionLevel'],
    QrDesign['frameStyle'],
  ];
  const design: QrDesign = {
    ...DEFAULT_DESIGN,
    ...PALETTES[i % PALETTES.length],
    dotsStyle: dot,
    cornerSquare: sq,
    cornerDot: cd,
    isGradient: fill !== 'solid',
    gradientType: fill === 'radial' ? 'radial' : 'linear',
    gradientRotation: ROTATIONS[i % ROTATIONS.length]!,
    errorCorrectionLevel: ec,
    resolution: RESOLUTIONS[i % RESOLUTIONS.length]!,
    frameStyle: frame,
    frameText: FRAME_TEXTS[i % FRAME_TEXTS.length]!,
    logoSize: LOGO_SIZES[i % LOGO_SIZES.length]!,
    logoMargin: LOGO_MARGINS[i % LOGO_MARGINS.length]!,
    presetLogo: logo === 'preset' ? PRESETS[i % PRESETS.length]! : 'none',
    customLogoUrl: logo === 'custom' ? (i % 2 ? LOGO_SVG_DATA_URL : logoPngDataUrl()) : null,
    // Custom logos hide the dots behind them (the matrix's contract); presets try both.
    hideDotsBehindLogo: logo === 'custom' ? true : i % 3 !== 0,
  };
  const parts = [
    dot,
    `eye ${sq}/${cd}`,
    fill,
    logo === 'preset' ? `logo ${design.presetLogo}` : `logo ${logo}`,
    `EC ${ec}`,
    `frame ${frame}`,
  ];
  return { name: `#${i} ${parts.join(', ')}`, data: SHORT_URLS[i % SHORT_URLS.length]!, design };
}

/**
 * Greedy pairwise covering array over factors with `sizes[f]` values each, then `extra`
 * more seeded-random rows. A row holds one value index per factor.
 */
export function pairwiseRows(sizes: readonly number[], seed: number, extra: number): Row[] {
  const rand = mulberry32(seed);
  const forEachPair = (fn: (f1: number, f2: number) => void) => {
    for (let f1 = 0; f1 < sizes.length; f1++) for (let f2 = f1 + 1; f2 < sizes.length; f2++) fn(f1, f2);
  };
  const uncovered = new Set<string>();
  const key = (f1: number, v1: number, f2: number, v2: number) => `${f1}:${v1}|${f2}:${v2}`;
  forEachPair((f1, f2) => {
    for (let a = 0; a < sizes[f1]!; a++) for (let b = 0; b < sizes[f2]!; b++) uncovered.add(key(f1, a, f2, b));
  });
  const randomRow = (): Row => sizes.map((n) => Math.floor(rand() * n));
  const gain = (row: Row) => {
    let g = 0;
    forEachPair((f1, f2) => {
      if (uncovered.has(key(f1, row[f1]!, f2, row[f2]!))) g++;
    });
    return g;
  };
  const rows: Row[] = [];
  while (uncovered.size > 0) {
    let best = randomRow();
    let bestGain = gain(best);
    for (let i = 0; i < 60; i++) {
      const candidate = randomRow();
      const g = gain(candidate);
      if (g > bestGain) [best, bestGain] = [candidate, g];
    }
    if (bestGain === 0) best = rowForPair([...uncovered][0]!, randomRow());
    forEachPair((f1, f2) => uncovered.delete(key(f1, best[f1]!, f2, best[f2]!)));
    rows.push(best);
  }
  for (let i = 0; i < extra; i++) rows.push(randomRow());
  return rows;
}

function rowForPair(pair: string, row: Row): Row {
  for (const part of pair.split('|')) {
    const [f, v] = part.split(':').map(Number) as [number, number];
    row[f] = v;
  }
  return row;
}

/** A small seeded generator: the same cases on every run. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every value of every main factor that the cases use, for the coverage assertion. */
export function coverage(cases: MatrixCase[]): Record<string, Set<string>> {
  const seen: Record<string, Set<string>> = {};
  const add = (k: string, v: unknown) => (seen[k] ??= new Set()).add(String(v));
  for (const { design: d } of cases) {
    add('dotsStyle', d.dotsStyle);
    add('cornerSquare', d.cornerSquare);
    add('cornerDot', d.cornerDot);
    add('fill', d.isGradient ? d.gradientType : 'solid');
    add('logo', d.customLogoUrl ? 'custom' : d.presetLogo === 'none' ? 'none' : 'preset');
    add('presetLogo', d.presetLogo);
    add('errorCorrectionLevel', d.errorCorrectionLevel);
    add('frameStyle', d.frameStyle);
  }
  return seen;
}
