// The custom logos a request gives, parsed and sanitized before its design is normalised.
// Sanitizing a large SVG logo takes a tenth of a second or more, so the server passes a
// `parseLogo` bound to its render pool; the result is handed to normalizeDesignPatch as an
// argument, and a logo missing from it is a programming error, not a silent parse in place.
import type { ParsedLogo } from './logo.ts';

/** Parses and sanitizes one logo data URL (throws a ValidationError naming `field`). */
export type ParseLogo = (field: string, dataUrl: string) => Promise<ParsedLogo>;

/** Parsed logos by their input text. */
export type ParsedLogos = ReadonlyMap<string, ParsedLogo>;

/** For designs that carry no custom logo. */
export const NO_LOGOS: ParsedLogos = new Map();

interface BodyWithLogos {
  customLogoUrl?: string | null;
  design?: { customLogoUrl?: string | null };
}

/** The custom logos a request body gives, each once. */
export function logosIn(body: BodyWithLogos | undefined): string[] {
  return [...new Set([body?.customLogoUrl, body?.design?.customLogoUrl])].filter((v): v is string => typeof v === 'string');
}

/** Every logo of `body`, parsed with `parseLogo`. */
export async function parseLogosOf(body: BodyWithLogos | undefined, parseLogo: ParseLogo): Promise<ParsedLogos> {
  const logos = logosIn(body);
  const parsed = await Promise.all(logos.map((logo) => parseLogo('customLogoUrl', logo)));
  return new Map(logos.map((logo, i) => [logo, parsed[i]!]));
}
