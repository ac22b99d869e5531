// What a code holds, as the studio edits it: the kind, its typed fields (or a raw payload),
// checked in the browser with the API's own rules (src/domain/payload.ts), so a message
// shows next to its field before anything is sent. Existing codes only store the payload:
// it is read back into typed fields where the format allows.
import { ValidationError } from '../../../src/domain/errors.ts';
import { assemblePayload, type ContentType, parseVcardPayload, parseWifiPayload, type TypedFields, validatePayload, WIFI_ENCRYPTIONS, type WifiEncryption } from '../../../src/domain/payload.ts';

export type FieldName = keyof TypedFields;

export interface FieldDef {
  name: FieldName;
  label: string;
  hint?: string;
  required?: boolean;
  multiline?: boolean;
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
  url: [{ name: 'url', label: 'Web address', hint: 'http or https; example.com/menu becomes https://example.com/menu', required: true, type: 'url' }],
  wifi: [
    { name: 'wifiSsid', label: 'Network name (SSID)', required: true },
    { name: 'wifiEnc', label: 'Security', options: WIFI_ENCRYPTIONS.map((v) => ({ value: v, label: WIFI_LABELS[v] })) },
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
  text: [{ name: 'text', label: 'Text', required: true, multiline: true }],
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
  return {
    url: '', wifiSsid: '', wifiPass: '', wifiEnc: 'WPA', vcardFirstName: '', vcardLastName: '', vcardPhone: '', vcardEmail: '', vcardOrg: '', vcardWeb: '',
    waNumber: '', waMessage: '', text: '', emailTo: '', emailSubject: '', emailBody: '',
  };
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
}

/** The payload the API would store, or the first rule broken (the API stops at the first, too). */
export function checkContent(content: Content): ContentCheck {
  try {
    const payload = content.raw !== null ? validatePayload(content.kind, content.raw) : assemblePayload(content.kind, typedFields(content));
    return { payload, errors: {} };
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    const m = /^(\w+): (.+)$/.exec(err.message);
    const field = (m ? m[1] : 'payload') as FieldName | 'payload';
    const message = m ? m[2]! : err.message;
    return { payload: null, errors: { [field]: message.charAt(0).toUpperCase() + message.slice(1) } };
  }
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
      Object.assign(f, { vcardFirstName: v.firstName, vcardLastName: v.lastName, vcardPhone: v.phone, vcardEmail: v.email, vcardOrg: v.org, vcardWeb: v.web });
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
