// A code's public heading (issue #32): what its landing page (Wi-Fi, contact, text) shows
// visitors. The title is the account's own name for the code, for its list and file names, and
// is never shown to visitors; without a heading the page says what kind of code it is.
// Browser-safe, so the studio checks it as the API does.
import { ValidationError } from '../errors.ts';
import type { ContentType } from '../payload/index.ts';

export const HEADING_MAX = 120;

/** The heading to store: trimmed, null when empty (a neutral heading is shown then). */
export function checkHeading(heading: string | null): string | null {
  if (heading === null) return null;
  const h = heading.trim();
  if (h === '') return null;
  if ([...h].length > HEADING_MAX) throw new ValidationError(`heading: must be at most ${HEADING_MAX} characters`);
  return h;
}

const NEUTRAL: Record<ContentType, string> = {
  url: 'Link',
  wifi: 'Wi-Fi network',
  vcard: 'Contact',
  whatsapp: 'WhatsApp',
  text: 'A message for you',
  email: 'Email',
};

/** What a landing page shows as its heading: the code's heading, or a neutral one by kind. */
export function publicHeadingOf(item: { heading: string | null; contentType: ContentType }): string {
  return item.heading ?? NEUTRAL[item.contentType];
}
