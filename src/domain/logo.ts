// Custom logos arrive as data: URLs (the server never fetches a URL). Raster logos
// are checked by media type, size and magic bytes.
import { ValidationError } from './errors.ts';

export type LogoMediaType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/svg+xml';

export interface ParsedLogo {
  mediaType: LogoMediaType;
  bytes: Buffer;
  dataUrl: string;
}

const MAX_BYTES = 512 * 1024;
const DATA_URL_RE = /^data:(image\/(?:png|jpeg|webp));base64,([A-Za-z0-9+/]*={0,2})$/;

const MAGIC: Record<Exclude<LogoMediaType, 'image/svg+xml'>, (b: Buffer) => boolean> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/webp': (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

export function parseLogoDataUrl(field: string, value: string): ParsedLogo {
  const m = DATA_URL_RE.exec(value);
  if (!m) throw new ValidationError(`${field}: must be a base64 data: URL of a PNG, JPEG or WebP image`);
  const mediaType = m[1] as Exclude<LogoMediaType, 'image/svg+xml'>;
  const bytes = Buffer.from(m[2]!, 'base64');
  if (bytes.length === 0) throw new ValidationError(`${field}: the image is empty`);
  if (bytes.length > MAX_BYTES) throw new ValidationError(`${field}: the image must be at most 512 KiB`);
  if (!MAGIC[mediaType](bytes)) throw new ValidationError(`${field}: the data is not a ${mediaType} image`);
  return { mediaType, bytes, dataUrl: value };
}
