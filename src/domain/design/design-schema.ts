// The design options, written once: names, allowed values, bounds, defaults and the sentence
// each rule answers with. The API's request and answer schemas, the OpenAPI document, the
// studio's controls and range checks and its design-file import all read this schema.
// Browser-safe (TypeBox only): the studio loads it without the logo checks of design.ts.
import { type Static, Type } from 'typebox';
import { Between, Enum, named, optionalAll, Text } from '../schema-kit.ts';

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

/** `#rgb`, `#rrggbb` or `#rrggbbaa`; normalizeColor (design.ts) applies the same pattern. */
export const COLOR_PATTERN = '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$';
export const COLOR_RULE = 'must be a hex color #rgb, #rrggbb or #rrggbbaa';

const Color = (description: string) => Type.String({ pattern: COLOR_PATTERN, rule: COLOR_RULE, description, examples: ['#1a73e8'] });

const CornerStyleSchema = named('CornerStyle', Enum(CORNER_STYLES));

/** The 23 options, each with its type, bounds and 400 sentence. */
export const designOptions = {
  dotsStyle: named('DotStyle', Enum(DOT_STYLES)),
  cornerSquare: CornerStyleSchema,
  cornerDot: CornerStyleSchema,
  isGradient: Type.Boolean(),
  gradientType: named('GradientType', Enum(GRADIENT_TYPES)),
  gradientRotation: Between(LIMITS.gradientRotation.min, LIMITS.gradientRotation.max, false, 'Degrees'),
  color1: Color('Dot color, or the first gradient stop'),
  color2: Color('Second gradient stop'),
  bgColor: Color('Background color'),
  bgTransparent: Type.Boolean(),
  customEyeColors: Type.Boolean(),
  eyeColor: Color('Color of the three corner eyes when customEyeColors is true'),
  presetLogo: named('PresetLogo', Enum(PRESET_LOGOS)),
  customLogoUrl: Type.Union([Type.String({ maxLength: 800_000 }), Type.Null()], {
    rule: 'must be null or a data: URL of a PNG, JPEG, WebP or SVG image of at most 512 KiB',
    description:
      'data: URL (png, jpeg, webp, svg+xml; at most 512 KiB decoded) or null; a PNG, JPEG or WebP must decode and draw something. Raster images (also inside SVG) may have at most ' +
      '16 megapixels and 8192 px a side, read from their headers. SVG is rebuilt from an allow-list and refused when too costly ' +
      'to draw: 20,000 elements once references are expanded, patterns/masks/clip paths 3 deep, 32 of them, 16 filter primitives ' +
      'per filter and 32 in all; CSS keeps presentation properties with plain values and url(#id) only. See the README.',
  }),
  logoSize: Between(LIMITS.logoSize.min, LIMITS.logoSize.max, false, 'Share of the error-correction budget the logo may cover'),
  logoMargin: Between(LIMITS.logoMargin.min, LIMITS.logoMargin.max, false, 'Pixels at a 1000 px render, scaled'),
  hideDotsBehindLogo: Type.Boolean(),
  frameStyle: named('FrameStyle', Enum(FRAME_STYLES)),
  frameText: Text(LIMITS.frameText.maxLength),
  frameColor: Color('Frame color'),
  frameTextColor: Color('Frame text color'),
  errorCorrectionLevel: named('ErrorCorrectionLevel', Enum(ERROR_CORRECTION_LEVELS)),
  resolution: Between(LIMITS.resolution.min, LIMITS.resolution.max, true, 'Image width in pixels'),
};

/** A design as answered: always every option, defaults filled in. */
export const QrDesignSchema = named(
  'QrDesign',
  Type.Object(designOptions, { additionalProperties: false, description: 'The effective design: every option, defaults filled in' }),
);

/** A design as sent: any subset of the options; the rest keep their stored or default values. */
export const DesignPatchSchema = named(
  'QrDesignInput',
  Type.Object(optionalAll(designOptions), {
    additionalProperties: false,
    rule: 'must be an object',
    description: 'Any subset of the QrDesign options; the others keep their stored or default values',
  }),
);

/** The effective design: every option has a value. Colours are `#rrggbb` or `#rrggbbaa`, lower-case. */
export type QrDesign = Static<typeof QrDesignSchema>;
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

export const DESIGN_FIELDS = Object.keys(designOptions) as (keyof QrDesign)[];
