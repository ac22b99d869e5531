// The Referer header cut down to its host: enough for a "where do scans come from"
// breakdown, without storing paths or queries that may carry personal data.

/** Longer headers are not real referrers worth parsing. */
const MAX_REFERRER_LENGTH = 2048;

/**
 * Lower-case host of an http(s) referrer, without port or credentials; null when the
 * header is missing, empty, not a URL, or another scheme (android-app:, file:, ...).
 * International names come back in their ASCII (punycode) form, as URL gives them.
 */
export function referrerHost(header: string | undefined): string | null {
  const value = header?.trim();
  if (!value || value.length > MAX_REFERRER_LENGTH) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  return host === '' ? null : host;
}
