// The visual design of a QR code: option values, defaults and merging.
// Values arriving here are already shape-checked by the HTTP schema; this module
// owns the rules a schema cannot express (colour normalisation, logo data URLs)
// and the meaning of "effective design" (defaults filled in).
import { ValidationError } from './errors.ts';
import { parseLogoOnce } from './parsed-logos.ts';

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
const COLOR_FIELDS = ['color1', 'color2', 'bgColor', 'eyeColor', 'frameColor', 'frameTextColor'] as const;

const COLOR_RE = /^#(?:[0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/** `#rgb`, `#rrggbb`, `#rrggbbaa` → lower-case `#rrggbb[aa]`; anything else is a 400. */
export function normalizeColor(field: string, value: string): string {
  if (!COLOR_RE.test(value)) {
    throw new ValidationError(`${field}: must be a hex color #rgb, #rrggbb or #rrggbbaa`);
  }
  const hex = value.slice(1).toLowerCase();
  if (hex.length === 3) return '#' + [...hex].map((c) => c + c).join('');
  return '#' + hex;
}

/**
 * Applies the rules the schema cannot: colours are normalised, the logo data URL is
 * checked (media type, size, SVG sanitized). Returns a new patch; does not fill defaults.
 */
export function normalizeDesignPatch(patch: DesignPatch, fieldPrefix = ''): DesignPatch {
  const out: DesignPatch = { ...patch };
  for (const f of COLOR_FIELDS) {
    const v = out[f];
    if (v !== undefined) out[f] = normalizeColor(fieldPrefix + f, v);
  }
  if (out.customLogoUrl !== undefined && out.customLogoUrl !== null) {
    out.customLogoUrl = parseLogoOnce(fieldPrefix + 'customLogoUrl', out.customLogoUrl).dataUrl;
  }
  if (out.frameText !== undefined && [...out.frameText].length > LIMITS.frameText.maxLength) {
    throw new ValidationError(`${fieldPrefix}frameText: must be at most ${LIMITS.frameText.maxLength} characters`);
  }
  return out;
}

/** Stored design (possibly partial, from older rows) + patch → effective design. */
export function resolveDesign(base: DesignPatch | null | undefined, patch?: DesignPatch): QrDesign {
  return { ...DEFAULT_DESIGN, ...stripUndefined(base ?? {}), ...stripUndefined(patch ?? {}) };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}
