// The body of /r/{code}.vcf. A payload assembled by us is already a vCard 3.0; a raw payload
// written by hand may lack its frame, so it is wrapped into a card phones will import.
import { escapeVcardText, parseVcardPayload } from '../../domain/payload/index.ts';
import { wellFormed } from './escape-html.ts';

const CRLF = '\r\n';
const CONTENT_LINE = /^(?:[A-Za-z0-9-]+\.)?[A-Za-z][A-Za-z0-9-]*(?:;[^:]*)?:/;

/** A text/vcard body with CRLF lines. `fallbackName` (the item title) names a card without FN. */
export function renderVcf(payload: string, fallbackName = 'Contact'): string {
  const lines = payload.replace(/\r\n|\r/g, '\n').split('\n');
  while (lines.length > 0 && lines[lines.length - 1]?.trim() === '') lines.pop();
  if (/^BEGIN:VCARD$/i.test(lines.find((l) => l.trim() !== '')?.trim() ?? '')) {
    if (!/^END:VCARD$/i.test(lines[lines.length - 1]?.trim() ?? '')) lines.push('END:VCARD');
    return lines.join(CRLF) + CRLF;
  }
  return wrap(lines, fallbackName);
}

function wrap(lines: string[], fallbackName: string): string {
  // Folded continuation lines (leading space or tab) belong to the property above them.
  const properties = lines.filter((l, i) => CONTENT_LINE.test(l) || (/^[ \t]/.test(l) && i > 0 && CONTENT_LINE.test(lines[i - 1] ?? '')));
  const kept = properties.filter((l) => !/^(BEGIN|END|VERSION)[;:]/i.test(l));
  const loose = lines.filter((l) => !properties.includes(l) && l.trim() !== '');
  const card = parseVcardPayload(kept.join(CRLF));
  const name = card?.fullName || fallbackName.trim() || 'Contact';
  const out = ['BEGIN:VCARD', 'VERSION:3.0'];
  if (card === null || (card.firstName === '' && card.lastName === '')) out.push(`N:${structuredName(name)}`);
  if (card === null || !kept.some((l) => /^(?:[A-Za-z0-9-]+\.)?FN[;:]/i.test(l))) out.push(`FN:${escapeVcardText(name)}`);
  out.push(...kept);
  if (loose.length > 0) out.push(`NOTE:${escapeVcardText(loose.join('\n'))}`);
  out.push('END:VCARD');
  return out.join(CRLF) + CRLF;
}

/** N from a display name: the last word as family name, the rest as given names. */
function structuredName(fullName: string): string {
  const words = fullName.trim().split(/\s+/);
  const family = words.length > 1 ? (words.pop() ?? '') : '';
  return `${escapeVcardText(family)};${escapeVcardText(words.join(' '))};;;`;
}

/** `Content-Disposition` for the .vcf download, named after the contact (RFC 6266 / 5987). */
export function vcfContentDisposition(payload: string, fallbackName = 'contact'): string {
  const name = wellFormed(parseVcardPayload(payload)?.fullName || fallbackName);
  const ascii =
    name
      .replace(/[^A-Za-z0-9 ._-]+/g, '_')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 64) || 'contact';
  const utf8 = encodeURIComponent(`${[...name.trim()].slice(0, 64).join('')}.vcf`).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}.vcf"; filename*=UTF-8''${utf8}`;
}
