// Email: mailto:<to>?subject=..&body=.. (RFC 6068)
import { ValidationError } from '../errors.ts';
import { optional, optionalText, required, singleLine } from './checks.ts';
import type { TypedFields } from './fields.ts';
import { CONTROL_CHAR } from './url.ts';

const EMAIL_LOCAL = /^[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+(?:\.[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+)*$/u;
const EMAIL_DOMAIN = /^(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+[\p{L}\p{N}][\p{L}\p{N}-]*[\p{L}\p{N}]$/u;

function isEmailAddress(address: string): boolean {
  const at = address.lastIndexOf('@');
  if (at <= 0 || address.length > 254) return false;
  const local = address.slice(0, at);
  return local.length <= 64 && EMAIL_LOCAL.test(local) && EMAIL_DOMAIN.test(address.slice(at + 1));
}

export function checkEmailAddress(address: string, field: string): string {
  if (!isEmailAddress(address)) throw new ValidationError(`${field}: must be an email address like name@example.com`);
  return address;
}

export function assembleEmail(f: TypedFields): string {
  // RFC 6068 allows several recipients separated by commas.
  const to = required(f.emailTo, 'emailTo', 'email')
    .split(',')
    .map((a) => checkEmailAddress(a.trim(), 'emailTo'))
    .map(encodeAddress)
    .join(',');
  const query: string[] = [];
  const subject = optional(f.emailSubject);
  if (subject !== undefined) query.push(`subject=${encodeURIComponent(singleLine(subject, 'emailSubject'))}`);
  const body = optionalText(f.emailBody);
  if (body !== undefined) query.push(`body=${encodeURIComponent(body.replace(/\r\n|\r|\n/g, '\r\n'))}`);
  return `mailto:${to}${query.length > 0 ? `?${query.join('&')}` : ''}`;
}

/** `+` and `$` may stay literal in a mailto address (RFC 6068 qchar); `%`, `?`, `&`, `=`, `#`... may not. */
function encodeAddress(address: string): string {
  const at = address.lastIndexOf('@');
  const encode = (part: string) => encodeURIComponent(part).replace(/%2B/g, '+').replace(/%24/g, '$');
  return `${encode(address.slice(0, at))}@${encode(address.slice(at + 1))}`;
}

export function validateMailtoLink(payload: string): string {
  const s = payload.trim();
  if (!/^mailto:/i.test(s)) throw new ValidationError('payload: must be a mailto: link for contentType email');
  // Raw line breaks would split the Location header; RFC 6068 wants them percent-encoded anyway.
  if (CONTROL_CHAR.test(s)) throw new ValidationError('payload: must not contain control characters');
  // The parser percent-encodes non-ASCII characters; spaces are encoded here so the link is ASCII-safe.
  try {
    return new URL(s).href.replace(/ /g, '%20');
  } catch {
    throw new ValidationError('payload: must be a valid mailto: link');
  }
}
