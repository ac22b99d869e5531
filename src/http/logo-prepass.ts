// Custom logos in a request body are parsed and sanitized in the render pool before the
// request's own validation runs: sanitizing a large SVG logo takes a tenth of a second or
// more, which the thread answering the short links must not spend. The validation then
// finds each result already there (parsed-logos.ts).
import { rememberParsedLogo } from '../domain/parsed-logos.ts';
import type { RenderFor, RenderPool } from '../render-pool/render-pool.ts';

interface BodyWithLogos {
  customLogoUrl?: string | null;
  design?: { customLogoUrl?: string | null };
}

/** With `trialWidth` (create and update), each logo is also drawn once at the largest size it can have. */
export async function parseLogosInPool(renderer: RenderPool, body: BodyWithLogos | undefined, trialWidth: number | null, who?: RenderFor): Promise<void> {
  const logos = logosIn(body);
  const parsed = await Promise.all(logos.map((logo) => renderer.parseLogo('customLogoUrl', logo, trialWidth, who)));
  // Remembered together and used at once after: no other request can push them out in between.
  logos.forEach((logo, i) => rememberParsedLogo(logo, parsed[i]!));
}

/** The custom logos a request body gives, each once. */
export function logosIn(body: BodyWithLogos | undefined): string[] {
  return [...new Set([body?.customLogoUrl, body?.design?.customLogoUrl])].filter((v): v is string => typeof v === 'string');
}
