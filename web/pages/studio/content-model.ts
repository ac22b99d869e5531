// What a code holds, as the studio edits it: the kind, its typed fields (or a raw payload),
// checked in the browser with the API's own rules (src/domain/payload/index.ts), so a message
// shows next to its field before anything is sent. Existing codes only store the payload:
// it is read back into typed fields where the format allows.
import { ValidationError } from '../../../src/domain/errors.ts';
import {
  assemblePayload,
  type ContentType,
  PAYLOAD_MAX_LENGTH,
  parseVcardPayload,
  parseWifiPayload,
  type TypedFields,
  TYPED_FIELDS,
  validatePayload,
  WIFI_ENCRYPTIONS,
  type WifiEncryption,
} from '../../../src/domain/payload/index.ts';

export type FieldName = keyof TypedFields;

export interface FieldDef {
  name: FieldName;
  label: string;
  hint?: string;
  required?: boolean;
  multiline?: boolean;
  /** Shows a live count against the payload limit (the field is the whole payload). */
  counted?: boolean;
  type?: 'text' | 'email' | 'tel' | 'url';
  options?: ReadonlyArray<{ value: string; label: string }>;
}

export const KINDS: ReadonlyArray<{ kind: ContentType; label: string }> = [
  { kind: 'url', label: 'URL' },
  { kind: 'wifi', label: 'Wi-Fi' },
  { kind: 'vcard', label: 'vCard' },
  { kind: 'whatsapp', label: 'WhatsApp' },
  { kind: 'text', label: 'Text' },
  { kind: 'email', label: 'Email' },
];

const WIFI_LABELS: Record<WifiEncryption, string> = { WPA: 'WPA/WPA2/WPA3', WEP: 'WEP', nopass: 'None (open network)' };

export const FIELDS: Record<ContentType, FieldDef[]> = {
  url: [
    {
      name: 'url',
      label: 'Web address',
      hint: 'http or https; example.com/menu becomes https://example.com/menu',
      required: true,
      type: 'url',
    },
  ],
  wifi: [
    { name: 'wifiSsid', label: 'Network name (SSID)', required: true },
    { name: 'wifiEnc', label: 'Security', required: true, options: WIFI_ENCRYPTIONS.map((v) => ({ value: v, label: WIFI_LABELS[v] })) },
    { name: 'wifiPass', label: 'Password' },
  ],
  vcard: [
    { name: 'vcardFirstName', label: 'First name', hint: 'A first or a last name is needed' },
    { name: 'vcardLastName', label: 'Last name' },
    { name: 'vcardPhone', label: 'Phone', type: 'tel' },
    { name: 'vcardEmail', label: 'Email', type: 'email' },
    { name: 'vcardOrg', label: 'Organisation' },
    { name: 'vcardWeb', label: 'Website', type: 'url' },
  ],
  whatsapp: [
    { name: 'waNumber', label: 'WhatsApp number', hint: 'International format, e.g. +49 151 23456789', required: true, type: 'tel' },
    { name: 'waMessage', label: 'Prefilled message', multiline: true },
  ],
  text: [{ name: 'text', label: 'Text', required: true, multiline: true, counted: true }],
  email: [
    { name: 'emailTo', label: 'To', hint: 'One address, or several separated by commas', required: true, type: 'email' },
    { name: 'emailSubject', label: 'Subject' },
    { name: 'emailBody', label: 'Message', multiline: true },
  ],
};

export interface Content {
  kind: ContentType;
  /** Typed fields of every kind, so switching tabs keeps what was typed. */
  fields: Record<FieldName, string>;
  /** When set, the payload is given as is instead of assembled from the fields. */
  raw: string | null;
}

export function emptyFields(): Record<FieldName, string> {
  return Object.fromEntries(TYPED_FIELDS.map((f) => [f, f === 'wifiEnc' ? 'WPA' : ''])) as Record<FieldName, string>;
}

/** The typed fields of `kind` that are filled in, as the API takes them. */
export function typedFields(content: Content): TypedFields {
  const out: Record<string, string> = {};
  for (const def of FIELDS[content.kind]) {
    const v = content.fields[def.name];
    if (v !== '') out[def.name] = v;
  }
  return out as TypedFields;
}

export interface ContentCheck {
  payload: string | null;
  /** Field (a typed field or `payload`) → message. */
  errors: Partial<Record<FieldName | 'payload', string>>;
  /** Field → advice that does not block saving, because the API accepts the value. */
  warnings: Partial<Record<FieldName, string>>;
}

/** The fields of the content's kind as they apply now: a Wi-Fi password is needed unless the network is open. */
export function fieldsFor(content: Content): FieldDef[] {
  return FIELDS[content.kind].map((def) => (def.name === 'wifiPass' ? { ...def, required: content.fields.wifiEnc !== 'nopass' } : def));
}

/**
 * The payload the API would store, or every rule broken. The API stops at the first broken
 * rule; here each field in error is swapped for a stand-in and the rules run again, so all
 * invalid fields are marked in one pass.
 */
export function checkContent(content: Content): ContentCheck {
  const warnings = contentWarnings(content);
  if (content.raw !== null) {
    try {
      return { payload: validatePayload(content.kind, content.raw), errors: {}, warnings };
    } catch (err) {
      const broken = ruleBroken(err);
      const length = codePoints(content.raw);
      const message =
        broken.field === 'payload' && length > PAYLOAD_MAX_LENGTH
          ? `At most ${count(PAYLOAD_MAX_LENGTH)} characters (now ${count(length)})`
          : broken.message;
      return { payload: null, errors: { [broken.field]: message }, warnings };
    }
  }
  const fields = typedFields(content);
  const errors: ContentCheck['errors'] = {};
  for (let round = 0; round <= FIELDS[content.kind].length; round++) {
    try {
      const payload = assemblePayload(content.kind, fields);
      return { payload: Object.keys(errors).length === 0 ? payload : null, errors, warnings };
    } catch (err) {
      const broken = ruleBroken(err);
      if (!isFieldName(broken.field)) {
        // Assembled from valid fields, the only rule left is the payload's length: it is
        // named under the field that weighs most, as the raw payload is not on screen.
        errors[longestField(content)] = tooLong(content);
        break;
      }
      if (errors[broken.field] !== undefined) break;
      errors[broken.field] = userWording(broken.field, broken.message);
      Object.assign(fields, { [broken.field]: STAND_INS[broken.field] });
    }
  }
  return { payload: null, errors, warnings };
}

/** The field and message of a broken API rule ("field: message"). */
function ruleBroken(err: unknown): { field: string; message: string } {
  if (!(err instanceof ValidationError)) throw err;
  const m = /^(\w+): (.+)$/.exec(err.message);
  const message = m ? m[2]! : err.message;
  return { field: m ? m[1]! : 'payload', message: message.charAt(0).toUpperCase() + message.slice(1) };
}

function isFieldName(field: string): field is FieldName {
  return Object.hasOwn(STAND_INS, field);
}

/** Values every rule accepts, put in place of a field in error to reach the rules after it. */
const STAND_INS: Record<FieldName, string> = {
  url: 'https://example.com',
  wifiSsid: 'x',
  wifiPass: 'password',
  wifiEnc: 'WPA',
  vcardFirstName: 'x',
  vcardLastName: 'x',
  vcardPhone: '123',
  vcardEmail: 'x@example.com',
  vcardOrg: 'x',
  vcardWeb: 'https://example.com',
  waNumber: '+49 151 23456789',
  waMessage: 'x',
  text: 'x',
  emailTo: 'x@example.com',
  emailSubject: 'x',
  emailBody: 'x',
};

/** The API's "is required ..." messages name its fields (wifiEnc, contentType): said here as a person would. */
const REQUIRED: Partial<Record<FieldName, string>> = {
  url: 'Enter a web address',
  wifiSsid: 'Enter the network name',
  wifiPass: 'Enter the network password, or choose “None (open network)” under Security',
  vcardFirstName: 'Enter a first or a last name',
  waNumber: 'Enter the WhatsApp number',
  text: 'Enter the text',
  emailTo: 'Enter an email address',
};

function userWording(field: FieldName, message: string): string {
  return /^Is required\b/.test(message) ? (REQUIRED[field] ?? 'Fill in this field') : message;
}

function tooLong(content: Content): string {
  if (content.kind === 'text') return `At most ${count(PAYLOAD_MAX_LENGTH)} characters (now ${count(codePoints(content.fields.text))})`;
  const field = content.fields[longestField(content)];
  return `Too long: a code holds at most ${count(PAYLOAD_MAX_LENGTH)} characters in all, and this field has ${count(codePoints(field))}`;
}

function longestField(content: Content): FieldName {
  const named = FIELDS[content.kind].filter((d) => !d.options).map((d) => d.name);
  return named.reduce((a, b) => (codePoints(content.fields[b]) > codePoints(content.fields[a]) ? b : a));
}

/** WEP keys are 5 or 13 characters, or 10 or 26 hex digits; the API stores any password, so this only advises. */
function contentWarnings(content: Content): ContentCheck['warnings'] {
  const { wifiEnc, wifiPass } = content.fields;
  if (content.raw !== null || content.kind !== 'wifi' || wifiEnc !== 'WEP' || wifiPass === '') return {};
  const n = codePoints(wifiPass);
  const fits = n === 5 || n === 13 || ((n === 10 || n === 26) && /^[0-9a-f]+$/i.test(wifiPass));
  return fits ? {} : { wifiPass: 'WEP keys are usually 5 or 13 characters, or 10 or 26 hex digits: phones may not join with this one' };
}

/** Counted in code points, as the API counts the payload. */
export function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export function count(n: number): string {
  return n.toLocaleString('en');
}

/** A stored code's content: typed fields when its payload reads back cleanly, else raw. */
export function contentFromPayload(kind: ContentType, payload: string): Content {
  const fields = emptyFields();
  const typed = readTyped(kind, payload, fields);
  const content: Content = { kind, fields, raw: null };
  // Only typed when re-assembling gives back the same payload: saving must not change it.
  if (typed && checkContent(content).payload === payload) return content;
  return { kind, fields: emptyFields(), raw: payload };
}

function readTyped(kind: ContentType, payload: string, f: Record<FieldName, string>): boolean {
  switch (kind) {
    case 'url':
      f.url = payload;
      return true;
    case 'text':
      f.text = payload;
      return true;
    case 'wifi': {
      const w = parseWifiPayload(payload);
      if (!w || !(WIFI_ENCRYPTIONS as readonly string[]).includes(w.encryption) || w.hidden) return false;
      Object.assign(f, { wifiSsid: w.ssid, wifiPass: w.password, wifiEnc: w.encryption });
      return true;
    }
    case 'vcard': {
      const v = parseVcardPayload(payload);
      if (!v) return false;
      Object.assign(f, {
        vcardFirstName: v.firstName,
        vcardLastName: v.lastName,
        vcardPhone: v.phone,
        vcardEmail: v.email,
        vcardOrg: v.org,
        vcardWeb: v.web,
      });
      return true;
    }
    case 'whatsapp': {
      const m = /^https:\/\/wa\.me\/(\d+)(?:\?text=(.*))?$/.exec(payload);
      if (!m) return false;
      f.waNumber = `+${m[1]}`;
      f.waMessage = m[2] === undefined ? '' : safeDecode(m[2]);
      return true;
    }
    case 'email': {
      if (!payload.startsWith('mailto:')) return false;
      const [to = '', query = ''] = payload.slice(7).split('?', 2);
      const params = new URLSearchParams(query.replace(/\+/g, '%2B'));
      f.emailTo = safeDecode(to);
      f.emailSubject = params.get('subject') ?? '';
      f.emailBody = (params.get('body') ?? '').replace(/\r\n/g, '\n');
      return true;
    }
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
