// URLs: http(s) only, normalized by the WHATWG parser to ASCII, so a redirect can put them in
// `Location` safely.
import { ValidationError } from '../errors.ts';
import { required } from './checks.ts';
import type { TypedFields } from './fields.ts';

// C0 controls, DEL and C1 controls. The WHATWG parser silently drops tabs and newlines
// (`java\tscript:` parses as `javascript:`), so they are refused instead of normalized.
export const CONTROL_CHAR = /[\u0000-\u001f\u007f-\u009f]/;
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const PORT_AFTER_HOST = /^\d+(?:[/?#]|$)/;
const HOST_NAME = /^(?:[a-z0-9_-]+\.)*[a-z0-9_-]+\.?$/;
const IPV6_HOST = /^\[[0-9a-f:.]+\]$/;

/**
 * An http(s) URL, normalized by the WHATWG parser (ASCII only). Input without a scheme gets
 * `https://`; any other scheme (javascript:, data:, file:, ...) is refused.
 */
export function normalizeHttpUrl(input: string, field: string): string {
  const s = input.trim();
  if (s === '') throw new ValidationError(`${field}: must not be empty`);
  if (CONTROL_CHAR.test(s)) throw new ValidationError(`${field}: must not contain control characters`);
  const scheme = SCHEME.exec(s);
  // `example.com:8080/x` looks like scheme "example.com" to the regex; a port after it means a host.
  const schemeless = scheme === null || PORT_AFTER_HOST.test(s.slice(scheme[0].length));
  if (!schemeless && !/^https?$/i.test(scheme[1] ?? '')) {
    throw new ValidationError(`${field}: only http and https URLs are allowed`);
  }
  const url = parseUrl(schemeless ? `https://${s}` : s, field);
  checkUrlParts(url, field, schemeless);
  return url.href;
}

function parseUrl(s: string, field: string): URL {
  try {
    return new URL(s);
  } catch {
    throw new ValidationError(`${field}: must be a valid http or https URL`);
  }
}

function checkUrlParts(url: URL, field: string, schemeless: boolean): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ValidationError(`${field}: only http and https URLs are allowed`);
  }
  const host = url.hostname;
  if (!HOST_NAME.test(host) && !IPV6_HOST.test(host)) {
    throw new ValidationError(`${field}: must have a valid host name`);
  }
  // Without a scheme, a single word (`hello`, or `%6Aavascript:1` decoded) is a typo, not a site.
  if (schemeless && !host.includes('.') && host !== 'localhost' && !IPV6_HOST.test(host)) {
    throw new ValidationError(`${field}: must be a valid http or https URL with a host such as example.com`);
  }
  // Credentials in a printed code leak to everyone who scans it, and `https://bank.com@evil.test`
  // is a classic phishing disguise.
  if (url.username !== '' || url.password !== '') {
    throw new ValidationError(`${field}: must not contain a user name or password`);
  }
}

/** The url kind: its one field, normalized. */
export function assembleUrl(f: TypedFields): string {
  return normalizeHttpUrl(required(f.url, 'url', 'url'), 'url');
}

export function validateUrlPayload(payload: string): string {
  return normalizeHttpUrl(payload, 'payload');
}
