// vCard 3.0 (RFC 2426)
import { ValidationError } from '../errors.ts';
import { optional, singleLine } from './checks.ts';
import { checkEmailAddress } from './email.ts';
import type { TypedFields } from './fields.ts';
import { normalizeHttpUrl } from './url.ts';

const CRLF = '\r\n';

export function assembleVcard(f: TypedFields): string {
  const first = optional(f.vcardFirstName) ?? '';
  const last = optional(f.vcardLastName) ?? '';
  if (first === '' && last === '') {
    throw new ValidationError('vcardFirstName: is required for contentType vcard unless vcardLastName is given');
  }
  const lines = [
    'BEGIN:VCARD',
    'VERSION:3.0',
    `N:${escapeVcardText(last)};${escapeVcardText(first)};;;`,
    `FN:${escapeVcardText([first, last].filter((s) => s !== '').join(' '))}`,
    ...optionalVcardLines(f),
    'END:VCARD',
  ];
  return lines.join(CRLF) + CRLF;
}

function optionalVcardLines(f: TypedFields): string[] {
  const lines: string[] = [];
  const org = optional(f.vcardOrg);
  const phone = optional(f.vcardPhone);
  const email = optional(f.vcardEmail);
  const web = optional(f.vcardWeb);
  if (org !== undefined) lines.push(`ORG:${escapeVcardText(org)}`);
  if (phone !== undefined) lines.push(`TEL:${escapeVcardText(checkPhone(phone))}`);
  if (email !== undefined) lines.push(`EMAIL:${escapeVcardText(checkEmailAddress(email, 'vcardEmail'))}`);
  if (web !== undefined) lines.push(`URL:${vcardUri(normalizeHttpUrl(web, 'vcardWeb'))}`);
  return lines;
}

/** Lenient on purpose: vanity numbers (1-800-FLOWERS) and extensions are real phone numbers. */
function checkPhone(phone: string): string {
  singleLine(phone, 'vcardPhone');
  if ((phone.match(/\d/g) ?? []).length < 3) throw new ValidationError('vcardPhone: must contain at least 3 digits');
  return phone;
}

/** RFC 2426 §4: backslash, comma and semicolon are escaped; any line break becomes `\n`. */
export function escapeVcardText(value: string): string {
  return value.replace(/[\\,;]/g, (c) => `\\${c}`).replace(/\r\n|\r|\n/g, '\\n');
}

// A URI value is not TEXT, so its commas and semicolons are percent-encoded rather than
// backslash-escaped: readers disagree on unescaping URI values, but all decode a URL.
function vcardUri(href: string): string {
  return href.replace(/,/g, '%2C').replace(/;/g, '%3B');
}

export interface VcardFields {
  firstName: string;
  lastName: string;
  fullName: string;
  org: string;
  phone: string;
  email: string;
  web: string;
}

const VCARD_PROPERTIES = ['N', 'FN', 'ORG', 'TEL', 'EMAIL', 'URL'] as const;

/**
 * Reads the contact fields of a vCard (2.1/3.0/4.0). Tolerant of hand-written cards: LF or
 * CRLF, folded lines, groups (`item1.TEL`), parameters, missing BEGIN/END. Null when none of
 * N, FN, ORG, TEL, EMAIL, URL is present. Absent fields are ''.
 */
export function parseVcardPayload(payload: string): VcardFields | null {
  const props = readVcardProperties(payload);
  if (!VCARD_PROPERTIES.some((p) => props.has(p))) return null;
  const [lastName = '', firstName = ''] = splitVcardComponents(props.get('N') ?? '');
  const given = [firstName, lastName].filter((s) => s !== '').join(' ');
  const fn = unescapeVcardText(props.get('FN') ?? '').trim();
  return {
    firstName,
    lastName,
    fullName: fn !== '' ? fn : given,
    org: splitVcardComponents(props.get('ORG') ?? '')
      .filter((s) => s !== '')
      .join(', '),
    phone: unescapeVcardText(props.get('TEL') ?? ''),
    email: unescapeVcardText(props.get('EMAIL') ?? ''),
    web: unescapeVcardText(props.get('URL') ?? ''),
  };
}

/** Raw (still escaped) values of the first occurrence of each property, by upper-case name. */
function readVcardProperties(payload: string): Map<string, string> {
  const props = new Map<string, string>();
  const unfolded = payload.replace(/\r\n[ \t]|\n[ \t]|\r[ \t]/g, '');
  for (const line of unfolded.split(/\r\n|\r|\n/)) {
    const prop = parseContentLine(line);
    if (prop !== null && !props.has(prop.name)) props.set(prop.name, prop.value);
  }
  return props;
}

/** `[group.]NAME[;param=value...]:value`; the name ends at the first colon outside quotes. */
function parseContentLine(line: string): { name: string; value: string } | null {
  let inQuotes = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') inQuotes = !inQuotes;
    else if (c === ':' && !inQuotes) {
      const head = line.slice(0, i).split(';')[0] ?? '';
      const name = head.slice(head.lastIndexOf('.') + 1).toUpperCase();
      return /^[A-Z0-9-]+$/.test(name) ? { name, value: line.slice(i + 1) } : null;
    }
  }
  return null;
}

/** Splits a structured value (N, ORG) at unescaped semicolons, then unescapes each part. */
function splitVcardComponents(raw: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === '\\' && i + 1 < raw.length) {
      current += c + raw[++i];
    } else if (c === ';') {
      parts.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  parts.push(current);
  return parts.map((p) => unescapeVcardText(p).trim());
}

export function unescapeVcardText(value: string): string {
  // Unknown escapes (`C:\path` written by hand) keep their backslash.
  return value.replace(/\\([\\,;:nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));
}
