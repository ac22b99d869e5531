// The visual design of a QR code: option values, defaults and merging.
// Values arriving here are already shape-checked by the HTTP schema; this module
// owns the rules a schema cannot express (colour normalisation, logo data URLs)
// and the meaning of "effective design" (defaults filled in).
import { ValidationError } from '../errors.ts';
import { describeCharacter, undrawableCharacters } from '../../render/frame-text-coverage.ts';
import type { ParsedLogos } from './request-logos.ts';
import {
  COLOR_PATTERN,
  COLOR_RULE,
  DEFAULT_DESIGN,
  DESIGN_FIELDS,
  designOptions,
  LIMITS,
  type DesignPatch,
  type QrDesign,
} from './design-schema.ts';

export * from './design-schema.ts';

/** The options the schema types as colours. */
const COLOR_FIELDS = DESIGN_FIELDS.filter((f) => (designOptions[f] as { pattern?: string }).pattern === COLOR_PATTERN);

const COLOR_RE = new RegExp(COLOR_PATTERN);

/** `#rgb`, `#rrggbb`, `#rrggbbaa` → lower-case `#rrggbb[aa]`; anything else is a 400. */
export function normalizeColor(field: string, value: string): string {
  if (!COLOR_RE.test(value)) {
    throw new ValidationError(`${field}: ${COLOR_RULE}`);
  }
  const hex = value.slice(1).toLowerCase();
  if (hex.length === 3) return '#' + [...hex].map((c) => c + c).join('');
  return '#' + hex;
}

/**
 * Applies the rules the schema cannot: colours are normalised, and the custom logo is replaced
 * by its sanitized form from `logos` (parsed ahead: request-logos.ts). Returns a new patch;
 * does not fill defaults.
 */
export function normalizeDesignPatch(patch: DesignPatch, logos: ParsedLogos, fieldPrefix = ''): DesignPatch {
  const out: DesignPatch = { ...patch };
  const colors = out as Record<string, unknown>;
  for (const f of COLOR_FIELDS) {
    const v = colors[f];
    if (v !== undefined) colors[f] = normalizeColor(fieldPrefix + f, v as string);
  }
  if (out.customLogoUrl !== undefined && out.customLogoUrl !== null) {
    const parsed = logos.get(out.customLogoUrl);
    if (parsed === undefined) throw new Error(`${fieldPrefix}customLogoUrl: the logo was not parsed before the design was normalised`);
    out.customLogoUrl = parsed.dataUrl;
  }
  if (out.frameText !== undefined) checkFrameText(fieldPrefix + 'frameText', out.frameText);
  return out;
}

/** Frame text fits the length limit and every character is in a font the renderer bundles. */
export function checkFrameText(field: string, text: string): void {
  if ([...text].length > LIMITS.frameText.maxLength) {
    throw new ValidationError(`${field}: must be at most ${LIMITS.frameText.maxLength} characters`);
  }
  const missing = undrawableCharacters(text);
  if (missing.length > 0) {
    throw new ValidationError(
      `${field}: no bundled font can draw ${missing.map(describeCharacter).join(', ')}; remove or replace ${missing.length === 1 ? 'it' : 'them'}`,
    );
  }
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
