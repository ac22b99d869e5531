// A payload from typed fields, or a raw payload checked: one table per direction, one entry per kind.
import { ValidationError } from '../errors.ts';
import { checkContentType, checkLength, checkStorableText } from './checks.ts';
import { type ContentType, TYPED_FIELDS, type TypedFields } from './fields.ts';
import { assembleEmail, validateMailtoLink } from './email.ts';
import { assembleText } from './text.ts';
import { assembleUrl, validateUrlPayload } from './url.ts';
import { assembleVcard } from './vcard.ts';
import { assembleWhatsapp, validateWhatsappLink } from './whatsapp.ts';
import { assembleWifi } from './wifi.ts';

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
  url: assembleUrl,
  wifi: assembleWifi,
  vcard: assembleVcard,
  whatsapp: assembleWhatsapp,
  text: assembleText,
  email: assembleEmail,
};

const RAW_VALIDATORS: Record<ContentType, (payload: string) => string> = {
  url: validateUrlPayload,
  whatsapp: validateWhatsappLink,
  email: validateMailtoLink,
  // Shown on a landing page, never redirected to: stored as given. The page copes with
  // hand-written payloads its parser cannot read.
  wifi: (p) => p,
  vcard: (p) => p,
  text: (p) => p,
};
