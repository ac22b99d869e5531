// Logos already parsed and sanitized elsewhere (in a render worker), by their input text.
// Sanitizing a large SVG logo takes a tenth of a second or more: the HTTP layer has it
// done in the render pool first, so the request's validation, which runs on the thread
// that answers the short links, finds the result here instead of parsing the logo again.
import { type ParsedLogo, parseLogoDataUrl } from './design/logo.ts';
import { LruCache } from './scans/lru-cache.ts';

// Each entry is used right after it is put (no await in between); a few are plenty.
const parsed = new LruCache<string, ParsedLogo>(8);

export function rememberParsedLogo(input: string, logo: ParsedLogo): void {
  parsed.set(input, logo);
}

/** parseLogoDataUrl, unless the same input was parsed already. */
export function parseLogoOnce(field: string, value: string): ParsedLogo {
  return parsed.get(value) ?? parseLogoDataUrl(field, value);
}
