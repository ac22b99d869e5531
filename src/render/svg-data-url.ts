// A drawn SVG as a data: URL, the form the studio shows its preview in: the server writes its
// first preview into the page this way, and the browser's redraws use the same function, so the
// two agree to the character and the app can take the server's image over unchanged.

const PREFIX = 'data:image/svg+xml;charset=utf-8,';

/**
 * A blob: URL costs a round trip to the browser process before the image loads, a data: URL
 * loads in the page (docs/performance.md). Only what a data URL cannot hold as written is
 * escaped, so a logo's base64 stays as it is.
 */
export function svgDataUrl(svg: string): string {
  return `${PREFIX}${svg.replace(/[%#\r\n]|[^\x00-\x7f]+/g, encodeURIComponent)}`;
}

/** The SVG a `svgDataUrl` holds, or null for any other URL. */
export function svgOfDataUrl(url: string): string | null {
  if (!url.startsWith(PREFIX)) return null;
  try {
    return decodeURIComponent(url.slice(PREFIX.length));
  } catch {
    return null;
  }
}
