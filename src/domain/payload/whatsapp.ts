// WhatsApp: https://wa.me/<digits>?text=<message>
import { ValidationError } from '../errors.ts';
import { optionalText, required } from './checks.ts';
import type { TypedFields } from './fields.ts';
import { normalizeHttpUrl } from './url.ts';

const WA_NUMBER_CHARS = /^[\d\s+().\-/]+$/;
const WHATSAPP_HOSTS = new Set(['wa.me', 'api.whatsapp.com']);

export function assembleWhatsapp(f: TypedFields): string {
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

export function validateWhatsappLink(payload: string): string {
  const href = normalizeHttpUrl(payload, 'payload');
  const url = new URL(href);
  if (url.protocol !== 'https:' || !WHATSAPP_HOSTS.has(url.hostname)) {
    throw new ValidationError('payload: must be a https://wa.me/ link for contentType whatsapp');
  }
  return href;
}
