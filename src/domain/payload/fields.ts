// The content kinds of a QR item and the typed fields each kind is assembled from
// (product-decisions §4).
export const CONTENT_TYPES = ['url', 'wifi', 'vcard', 'whatsapp', 'text', 'email'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

/** Listed here, not in wifi.ts: TypedFields carries the type. */
export const WIFI_ENCRYPTIONS = ['WPA', 'WEP', 'nopass'] as const;
export type WifiEncryption = (typeof WIFI_ENCRYPTIONS)[number];

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
