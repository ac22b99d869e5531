// Payload: what a QR item's short link leads to. Assembles it from the typed fields of each
// content kind (product-decisions §4), validates raw payloads, and parses Wi-Fi and vCard
// payloads back for the landing pages. Redirect kinds (url, whatsapp, email) always end up as
// ASCII-only http(s)/mailto links, so the short-link route can put them in `Location` safely.
import { ValidationError } from './errors.ts';

export const CONTENT_TYPES = ['url', 'wifi', 'vcard', 'whatsapp', 'text', 'email'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

export const WIFI_ENCRYPTIONS = ['WPA', 'WEP', 'nopass'] as const;
export type WifiEncryption = (typeof WIFI_ENCRYPTIONS)[number];

/** Counted in Unicode code points, like JSON Schema's maxLength. */
export const PAYLOAD_MAX_LENGTH = 4000;

export interface TypedFields {
  url?: string;
  wifiSsid?: string;
  wifiPass?: string;
  wifiEnc?: WifiEncryption;
  vcardFirstName?: string;
  vcardLastName?: string;
  vcardPhone?: string;
  vcardEmail?: string;
  vcardOrg?: string;
  vcardWeb?: string;
  waNumber?: string;
  waMessage?: string;
  text?: string;
  emailTo?: string;
  emailSubject?: string;
  emailBody?: string;
}

export const TYPED_FIELDS = [
  'url',
  'wifiSsid',
  'wifiPass',
  'wifiEnc',
  'vcardFirstName',
  'vcardLastName',
  'vcardPhone',
  'vcardEmail',
  'vcardOrg',
  'vcardWeb',
  'waNumber',
  'waMessage',
  'text',
  'emailTo',
  'emailSubject',
  'emailBody',
] as const satisfies readonly (keyof TypedFields)[];

// Compile-time proof that TYPED_FIELDS lists every key of TypedFields.
const everyFieldListed: Exclude<keyof TypedFields, (typeof TYPED_FIELDS)[number]> extends never ? true : never = true;
void everyFieldListed;

/** The kind each typed field belongs to. */
export const KIND_OF_FIELD: Record<(typeof TYPED_FIELDS)[number], ContentType> = {
  url: 'url',
  wifiSsid: 'wifi',
  wifiPass: 'wifi',
  wifiEnc: 'wifi',
  vcardFirstName: 'vcard',
  vcardLastName: 'vcard',
  vcardPhone: 'vcard',
  vcardEmail: 'vcard',
  vcardOrg: 'vcard',
  vcardWeb: 'vcard',
  waNumber: 'whatsapp',
  waMessage: 'whatsapp',
  text: 'text',
  emailTo: 'email',
  emailSubject: 'email',
  emailBody: 'email',
};

/** Plain sentences for typed fields given that `contentType` does not use (they are ignored). */
export function foreignFieldWarnings(contentType: ContentType, fields: TypedFields): string[] {
  return TYPED_FIELDS.filter((f) => fields[f] !== undefined && KIND_OF_FIELD[f] !== contentType).map(
    (f) => `${f} was ignored: it belongs to ${KIND_OF_FIELD[f]} codes, and this code is ${contentType}.`,
  );
}

export function isContentType(value: string): value is ContentType {
  return (CONTENT_TYPES as readonly string[]).includes(value);
}

/** Builds the payload of `contentType` from its typed fields; fields of other kinds are ignored. */
export function assemblePayload(contentType: ContentType, fields: TypedFields): string {
  checkContentType(contentType);
  for (const key of TYPED_FIELDS) {
    const value = fields[key];
    if (value !== undefined) checkStorableText(key, value);
  }
  return checkLength(ASSEMBLERS[contentType](fields));
}

/** Checks a raw payload given by the client; returns what to store (normalized for url). */
export function validatePayload(contentType: ContentType, payload: string): string {
  checkContentType(contentType);
  checkStorableText('payload', payload);
  if (payload.trim() === '') throw new ValidationError('payload: must not be empty');
  checkLength(payload);
  return checkLength(RAW_VALIDATORS[contentType](payload));
}

const ASSEMBLERS: Record<ContentType, (f: TypedFields) => string> = {
  url: (f) => normalizeHttpUrl(required(f.url, 'url', 'url'), 'url'),
  wifi: assembleWifi,
  vcard: assembleVcard,
  whatsapp: assembleWhatsapp,
  text: (f) => required(f.text, 'text', 'text', false),
  email: assembleEmail,
};

const RAW_VALIDATORS: Record<ContentType, (payload: string) => string> = {
  url: (p) => normalizeHttpUrl(p, 'payload'),
  whatsapp: validateWhatsappLink,
  email: validateMailtoLink,
  // Shown on a landing page, never redirected to: stored as given. The page copes with
  // hand-written payloads its parser cannot read.
  wifi: (p) => p,
  vcard: (p) => p,
  text: (p) => p,
};

// ---------------------------------------------------------------------------------------------
// Shared checks

function checkContentType(contentType: string): void {
  if (!isContentType(contentType)) {
    throw new ValidationError(`contentType: must be one of ${CONTENT_TYPES.join(', ')}`);
  }
}

// NUL cannot be stored in PostgreSQL text, and a lone surrogate cannot be encoded as UTF-8
// (nor percent-encoded): both would surface as a 5xx far from the input that caused it.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function checkStorableText(field: string, value: string): void {
  if (typeof value !== 'string') throw new ValidationError(`${field}: must be a string`);
  if (UNSTORABLE.test(value)) {
    throw new ValidationError(`${field}: must be valid Unicode text without NUL characters`);
  }
}

function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

function checkLength(payload: string): string {
  if (payload.length > PAYLOAD_MAX_LENGTH && codePointLength(payload) > PAYLOAD_MAX_LENGTH) {
    throw new ValidationError(`payload: must be at most ${PAYLOAD_MAX_LENGTH} characters`);
  }
  return payload;
}

/** The field's value (trimmed unless `trim` is false), or a 400 naming it. */
function required(value: string | undefined, field: string, kind: ContentType, trim = true): string {
  if (value === undefined || value.trim() === '') throw new ValidationError(`${field}: is required for contentType ${kind}`);
  return trim ? value.trim() : value;
}

/** Trimmed value, or undefined when absent or blank: an empty form field means "not given". */
function optional(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** Like `optional`, but keeps surrounding whitespace of free text (messages, bodies). */
function optionalText(value: string | undefined): string | undefined {
  return optional(value) === undefined ? undefined : value;
}

function singleLine(value: string, field: string): string {
  if (/[\r\n\u2028\u2029]/.test(value)) throw new ValidationError(`${field}: must be a single line`);
  return value;
}

// ---------------------------------------------------------------------------------------------
// URLs

// C0 controls, DEL and C1 controls. The WHATWG parser silently drops tabs and newlines
// (`java\tscript:` parses as `javascript:`), so they are refused instead of normalized.
const CONTROL_CHAR = /[\u0000-\u001f\u007f-\u009f]/;
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

// ---------------------------------------------------------------------------------------------
// Wi-Fi: WIFI:T:<enc>;S:<ssid>;P:<pass>;;  (the ZXing "WIFI:" format)

const SSID_MAX_BYTES = 32;

function assembleWifi(f: TypedFields): string {
  const ssid = required(f.wifiSsid, 'wifiSsid', 'wifi', false); // spaces in SSIDs are significant
  if (new TextEncoder().encode(ssid).length > SSID_MAX_BYTES) {
    throw new ValidationError(`wifiSsid: must be at most ${SSID_MAX_BYTES} bytes (UTF-8)`);
  }
  const enc = wifiEncryption(f);
  if (enc === 'nopass') return `WIFI:T:nopass;S:${escapeWifi(ssid)};;`;
  const pass = f.wifiPass ?? '';
  if (pass === '') throw new ValidationError(`wifiPass: is required when wifiEnc is ${enc}`);
  return `WIFI:T:${enc};S:${escapeWifi(ssid)};P:${escapeWifi(pass)};;`;
}

/** `wifiEnc` defaults to WPA when a password is given; without one, only an open network works. */
function wifiEncryption(f: TypedFields): WifiEncryption {
  const enc = f.wifiEnc;
  if (enc === undefined) return (f.wifiPass ?? '') === '' ? 'nopass' : 'WPA';
  if (!(WIFI_ENCRYPTIONS as readonly string[]).includes(enc)) {
    throw new ValidationError(`wifiEnc: must be one of ${WIFI_ENCRYPTIONS.join(', ')}`);
  }
  return enc;
}

function escapeWifi(value: string): string {
  return value.replace(/[\\;,:"]/g, (c) => `\\${c}`);
}

export interface WifiFields {
  ssid: string;
  password: string;
  /** `WPA`, `WEP`, `nopass`, or another T: value as written (upper-cased), e.g. `WPA2-EAP`. */
  encryption: string;
  hidden: boolean;
}

/** Reads a `WIFI:` payload, also hand-written ones (any field order, quotes, missing `;;`). */
export function parseWifiPayload(payload: string): WifiFields | null {
  const s = payload.trim();
  if (!/^WIFI:/i.test(s)) return null;
  const fields = readWifiFields(s.slice(5));
  const ssid = fields.get('S');
  if (ssid === undefined || ssid === '') return null;
  const password = fields.get('P') ?? '';
  const encryption = wifiEncryptionOf(fields.get('T'), password);
  return {
    ssid,
    password: encryption === 'nopass' ? '' : password,
    encryption,
    hidden: (fields.get('H') ?? '').toLowerCase() === 'true',
  };
}

function wifiEncryptionOf(t: string | undefined, password: string): string {
  if (t === undefined || t === '') return password === '' ? 'nopass' : 'WPA';
  return t.toLowerCase() === 'nopass' ? 'nopass' : t.toUpperCase();
}

/** `K:value;` pairs; the first occurrence of a key wins. Backslash escapes any character. */
function readWifiFields(body: string): Map<string, string> {
  const fields = new Map<string, string>();
  const keyAt = /([A-Za-z0-9]+):/y;
  let i = 0;
  while (i < body.length) {
    keyAt.lastIndex = i;
    const key = keyAt.exec(body);
    const start = key ? i + key[0].length : i;
    const { value, end } = readWifiValue(body, start);
    const name = key?.[1]?.toUpperCase();
    if (name !== undefined && !fields.has(name)) fields.set(name, value);
    i = end + 1;
  }
  return fields;
}

function readWifiValue(body: string, start: number): { value: string; end: number } {
  const chars: { c: string; escaped: boolean }[] = [];
  let i = start;
  for (; i < body.length && body[i] !== ';'; i++) {
    const escaped = body[i] === '\\' && i + 1 < body.length;
    if (escaped) i++;
    chars.push({ c: body[i] ?? '', escaped });
  }
  // A value wrapped in unescaped double quotes is quoted (allowed by the format); strip them.
  const first = chars[0];
  const last = chars[chars.length - 1];
  const quoted = chars.length >= 2 && first?.c === '"' && !first.escaped && last?.c === '"' && !last.escaped;
  const inner = quoted ? chars.slice(1, -1) : chars;
  return { value: inner.map((ch) => ch.c).join(''), end: i };
}

// ---------------------------------------------------------------------------------------------
// vCard 3.0 (RFC 2426)

const CRLF = '\r\n';

function assembleVcard(f: TypedFields): string {
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
    org: splitVcardComponents(props.get('ORG') ?? '').filter((s) => s !== '').join(', '),
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

// ---------------------------------------------------------------------------------------------
// WhatsApp: https://wa.me/<digits>?text=<message>

const WA_NUMBER_CHARS = /^[\d\s+().\-/]+$/;
const WHATSAPP_HOSTS = new Set(['wa.me', 'api.whatsapp.com']);

function assembleWhatsapp(f: TypedFields): string {
  const number = required(f.waNumber, 'waNumber', 'whatsapp');
  if (!WA_NUMBER_CHARS.test(number)) {
    throw new ValidationError('waNumber: must be a phone number in international format, e.g. +49 151 23456789');
  }
  let digits = number.replace(/\D/g, '');
  // 00 is the international call prefix, the same as "+"; wa.me wants the country code itself.
  if (number.startsWith('00')) digits = digits.slice(2);
  if (digits.length < 6 || digits.length > 15) throw new ValidationError('waNumber: must have 6 to 15 digits');
  const message = optionalText(f.waMessage);
  return `https://wa.me/${digits}${message === undefined ? '' : `?text=${encodeURIComponent(message)}`}`;
}

function validateWhatsappLink(payload: string): string {
  const href = normalizeHttpUrl(payload, 'payload');
  const url = new URL(href);
  if (url.protocol !== 'https:' || !WHATSAPP_HOSTS.has(url.hostname)) {
    throw new ValidationError('payload: must be a https://wa.me/ link for contentType whatsapp');
  }
  return href;
}

// ---------------------------------------------------------------------------------------------
// Email: mailto:<to>?subject=..&body=.. (RFC 6068)

const EMAIL_LOCAL = /^[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+(?:\.[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+)*$/u;
const EMAIL_DOMAIN = /^(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+[\p{L}\p{N}][\p{L}\p{N}-]*[\p{L}\p{N}]$/u;

function isEmailAddress(address: string): boolean {
  const at = address.lastIndexOf('@');
  if (at <= 0 || address.length > 254) return false;
  const local = address.slice(0, at);
  return local.length <= 64 && EMAIL_LOCAL.test(local) && EMAIL_DOMAIN.test(address.slice(at + 1));
}

function checkEmailAddress(address: string, field: string): string {
  if (!isEmailAddress(address)) throw new ValidationError(`${field}: must be an email address like name@example.com`);
  return address;
}

function assembleEmail(f: TypedFields): string {
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

function validateMailtoLink(payload: string): string {
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
