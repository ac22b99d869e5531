// `Content-Disposition: attachment` with a file name made from the item's title: an ASCII
// `filename` every client understands, and `filename*` (RFC 6266 with RFC 5987 encoding)
// carrying the title as written, for clients that read it (every current browser).
import { titleSlug } from '../../domain/qr-items/title-slug.ts';

/** Characters no file system or header should see in a name. */
const UNSAFE = /[\p{C}\\/:*?"<>|]+/gu;

export function attachment(title: string, fallback: string, ext: string): string {
  const ascii = `${titleSlug(title) || fallback}.${ext}`;
  // Cut by code points: cut by UTF-16 units, half an emoji was left, and encodeURIComponent threw (a 500).
  const unicode = `${[...title.replace(UNSAFE, ' ').trim().replace(/\s+/g, ' ')].slice(0, 120).join('') || fallback}.${ext}`;
  const encoded = encodeURIComponent(unicode).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
