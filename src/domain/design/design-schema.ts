// The design options themselves: names, allowed values, bounds and defaults. Free of
// imports, so the browser's studio can show every control and its range without loading
// the logo checks (design.ts) that come with the renderer.
export const DOT_STYLES = ['square', 'dots', 'rounded', 'extra-rounded', 'classy', 'classy-rounded'] as const;
export const CORNER_STYLES = ['square', 'dot', 'extra-rounded', 'classy', 'classy-rounded'] as const;
export const GRADIENT_TYPES = ['linear', 'radial'] as const;
export const FRAME_STYLES = ['none', 'bottom-banner', 'phone', 'badge'] as const;
export const ERROR_CORRECTION_LEVELS = ['L', 'M', 'Q', 'H'] as const;
export const PRESET_LOGOS = ['none', 'link', 'wifi', 'email', 'phone', 'whatsapp', 'vcard', 'text', 'location'] as const;

export type DotStyle = (typeof DOT_STYLES)[number];
export type CornerStyle = (typeof CORNER_STYLES)[number];
export type GradientType = (typeof GRADIENT_TYPES)[number];
export type FrameStyle = (typeof FRAME_STYLES)[number];
export type ErrorCorrectionLevel = (typeof ERROR_CORRECTION_LEVELS)[number];
export type PresetLogo = (typeof PRESET_LOGOS)[number];

export const LIMITS = {
  gradientRotation: { min: 0, max: 360 },
  logoSize: { min: 0.1, max: 0.5 },
  logoMargin: { min: 0, max: 100 },
  resolution: { min: 500, max: 2500 },
  frameText: { maxLength: 64 },
  /** Width of a PDF export in millimetres: from a small label to a poster. */
  pdfWidthMm: { min: 10, max: 1000, default: 50 },
  logoBytes: 512 * 1024,
} as const;

/** The effective design: every option has a value. Colours are `#rrggbb` or `#rrggbbaa`, lower-case. */
export interface QrDesign {
  dotsStyle: DotStyle;
  cornerSquare: CornerStyle;
  cornerDot: CornerStyle;
  isGradient: boolean;
  gradientType: GradientType;
  gradientRotation: number;
  color1: string;
  color2: string;
  bgColor: string;
  bgTransparent: boolean;
  customEyeColors: boolean;
  eyeColor: string;
  presetLogo: PresetLogo;
  customLogoUrl: string | null;
  logoSize: number;
  logoMargin: number;
  hideDotsBehindLogo: boolean;
  frameStyle: FrameStyle;
  frameText: string;
  frameColor: string;
  frameTextColor: string;
  errorCorrectionLevel: ErrorCorrectionLevel;
  resolution: number;
}

export type DesignPatch = Partial<QrDesign>;

export const DEFAULT_DESIGN: Readonly<QrDesign> = Object.freeze({
  dotsStyle: 'square',
  cornerSquare: 'square',
  cornerDot: 'square',
  isGradient: false,
  gradientType: 'linear',
  gradientRotation: 0,
  color1: '#000000',
  color2: '#000000',
  bgColor: '#ffffff',
  bgTransparent: false,
  customEyeColors: false,
  eyeColor: '#000000',
  presetLogo: 'none',
  customLogoUrl: null,
  logoSize: 0.4,
  logoMargin: 0,
  hideDotsBehindLogo: true,
  frameStyle: 'none',
  frameText: 'Scan me',
  frameColor: '#000000',
  frameTextColor: '#ffffff',
  errorCorrectionLevel: 'Q',
  resolution: 1000,
});

export const DESIGN_FIELDS = Object.keys(DEFAULT_DESIGN) as (keyof QrDesign)[];
