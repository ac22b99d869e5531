// Designs as values the studio passes around: the API's range rules (read from the design
// schema, with its own sentences), a few built-in designs, and import/export as a JSON file
// holding the 23 options.
import { DEFAULT_DESIGN, DESIGN_FIELDS, designOptions, type QrDesign } from '../../../src/domain/design/design-schema.ts';
import { titleSlug } from '../../../src/domain/qr-items/title-slug.ts';

export type DesignErrors = Partial<Record<keyof QrDesign, string>>;

/** What the studio reads of an option's schema. */
interface OptionRule {
  type?: string;
  minimum?: number;
  maximum?: number;
  enum?: readonly string[];
  rule?: string;
}
const ruleOf = (field: keyof QrDesign): OptionRule => designOptions[field] as OptionRule;

/** Out-of-range numbers, worded as the API's 400 for them. */
export function rangeErrors(design: QrDesign): DesignErrors {
  const errors: DesignErrors = {};
  for (const field of DESIGN_FIELDS) {
    const { type, minimum, maximum, rule } = ruleOf(field);
    if (minimum === undefined || maximum === undefined) continue;
    const v = design[field] as number;
    if (!(v >= minimum && v <= maximum) || (type === 'integer' && !Number.isInteger(v))) errors[field] = capitalise(rule ?? '');
  }
  return errors;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export interface NamedDesign {
  name: string;
  design: QrDesign;
}

const d = (patch: Partial<QrDesign>): QrDesign => ({ ...DEFAULT_DESIGN, ...patch });

/** Designs every account starts with; all scan (the test suite decodes each). */
export const BUILT_IN_DESIGNS: readonly NamedDesign[] = [
  { name: 'Classic', design: d({}) },
  { name: 'Rounded ink', design: d({ dotsStyle: 'rounded', cornerSquare: 'extra-rounded', cornerDot: 'dot', color1: '#1e293b' }) },
  {
    name: 'Ocean gradient',
    design: d({
      dotsStyle: 'classy-rounded',
      cornerSquare: 'extra-rounded',
      cornerDot: 'dot',
      isGradient: true,
      gradientRotation: 45,
      color1: '#1d4ed8',
      color2: '#0f766e',
    }),
  },
  {
    name: 'Menu card',
    design: d({
      // Soft shapes that scan: round dots and circular corner squares draw the studio's own warnings.
      dotsStyle: 'extra-rounded',
      cornerSquare: 'extra-rounded',
      cornerDot: 'dot',
      frameStyle: 'bottom-banner',
      frameText: 'Scan for the menu',
      frameColor: '#7c2d12',
      color1: '#7c2d12',
      presetLogo: 'link',
      errorCorrectionLevel: 'H',
    }),
  },
  {
    name: 'Wi-Fi badge',
    design: d({
      dotsStyle: 'extra-rounded',
      customEyeColors: true,
      eyeColor: '#2563eb',
      presetLogo: 'wifi',
      frameStyle: 'badge',
      frameText: 'Free Wi-Fi',
      frameColor: '#2563eb',
      errorCorrectionLevel: 'H',
    }),
  },
];

/** What an exported file holds: a marker, the name, and all 23 options. */
export function designFile(name: string, design: QrDesign): string {
  return JSON.stringify({ qrtrackDesign: 1, name, design }, null, 2) + '\n';
}

/**
 * Reads a design file (ours, or a bare object of options); unknown options are refused
 * so a typo does not pass silently, missing ones take the defaults. Values are checked
 * afterwards like any edit (colours, ranges, logo).
 */
export function readDesignFile(text: string): NamedDesign {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error('The file is not JSON.');
  }
  if (!isObject(data)) throw new Error('The file must hold a JSON object.');
  const options = isObject(data.design) ? data.design : data;
  const name = typeof data.name === 'string' ? data.name : 'Imported design';
  const design: Record<string, unknown> = { ...DEFAULT_DESIGN };
  for (const [key, value] of Object.entries(options)) {
    if (options === data && (key === 'name' || key === 'qrtrackDesign')) continue;
    if (!(DESIGN_FIELDS as string[]).includes(key)) throw new Error(`Unknown design option "${key}".`);
    const expected = key === 'customLogoUrl' ? (value === null ? 'object' : 'string') : typeof DEFAULT_DESIGN[key as keyof QrDesign];
    if (typeof value !== expected) throw new Error(`${key}: must be a ${expected === 'object' ? 'string or null' : expected}.`);
    const { enum: choices, rule } = ruleOf(key as keyof QrDesign);
    if (choices && !choices.includes(value as string)) throw new Error(`${key}: ${rule}.`);
    design[key] = value;
  }
  return { name, design: design as unknown as QrDesign };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A file name from a title, made as the server's Content-Disposition makes it. */
export function fileNameOf(title: string, ext: string, fallback = 'qr-code'): string {
  return `${titleSlug(title) || fallback}.${ext}`;
}
