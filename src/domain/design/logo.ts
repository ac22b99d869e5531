// Custom logos arrive as data: URLs (the server never fetches a URL). Raster logos
// are checked by media type, size and magic bytes; SVG logos are re-built from an
// allow-list, and only the sanitized SVG is ever stored or drawn.
import { sanitizeSvg, SvgRejected } from '../../render/svg-sanitizer.ts';
import { decodeBase64 as base64Bytes, encodeBase64 } from '../base64.ts';
import { ValidationError } from '../errors.ts';
import { checkRasterSize } from '../raster-size.ts';
import { LIMITS } from './design-schema.ts';

export type LogoMediaType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/svg+xml';
type RasterType = Exclude<LogoMediaType, 'image/svg+xml'>;

export interface ParsedLogo {
  mediaType: LogoMediaType;
  bytes: Uint8Array;
  dataUrl: string;
}

const MAX_BYTES = LIMITS.logoBytes;
const MEDIA_TYPES: readonly LogoMediaType[] = ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml'];
/** One character class and a bounded tail: linear on any input. */
const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const MAGIC: Record<RasterType, (b: Uint8Array) => boolean> = {
  'image/png': (b) => PNG_SIGNATURE.every((v, i) => b[i] === v),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/webp': (b) => latin1(b, 0, 4) === 'RIFF' && latin1(b, 8, 12) === 'WEBP',
};

function latin1(b: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...b.subarray(start, end));
}

/** What people call each raster format, for messages. */
const RASTER_NAME: Record<RasterType, string> = { 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/webp': 'WebP' };

/**
 * The checks that need no decoding: a data: URL of an allowed type, raster as base64, and not
 * over 512 KiB by its length. A batch runs them on every item before any logo is parsed, so
 * one broken item does not first cost a second of render time per logo before it.
 */
export function checkLogoShape(field: string, value: string): void {
  shape(field, value);
}

function shape(field: string, value: string): { mediaType: LogoMediaType; base64Flag: boolean; payload: string } {
  const fail = (rule: string): never => {
    throw new ValidationError(`${field}: ${rule}`);
  };
  // Cheap bound before any decoding: base64 of 512 KiB plus a generous header.
  if (value.length > Math.ceil(MAX_BYTES / 3) * 4 * 3 + 256) fail('the image must be at most 512 KiB');
  const parts = splitDataUrl(value.trim());
  if (!parts) return fail('must be a data: URL (remote URLs are not fetched)');
  const { rawType, base64Flag, payload } = parts;
  const mediaType = rawType.trim().toLowerCase() as LogoMediaType;
  if (!MEDIA_TYPES.includes(mediaType)) fail('media type must be image/png, image/jpeg, image/webp or image/svg+xml');
  if (!base64Flag && mediaType !== 'image/svg+xml') fail('raster images must be base64-encoded');
  // Four base64 characters are three bytes: whitespace and padding do not count.
  if (base64Flag && Math.floor((base64Length(payload) * 3) / 4) > MAX_BYTES) fail('the image must be at most 512 KiB');
  return { mediaType, base64Flag, payload };
}

function base64Length(payload: string): number {
  let n = 0;
  for (let i = 0; i < payload.length; i++) {
    const c = payload.charCodeAt(i);
    // Not whitespace (space, tab, CR, LF) and not padding.
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a && c !== 0x3d) n++;
  }
  return n;
}

export function parseLogoDataUrl(field: string, value: string): ParsedLogo {
  const fail = (rule: string): never => {
    throw new ValidationError(`${field}: ${rule}`);
  };
  const { mediaType, base64Flag, payload } = shape(field, value);
  const bytes = base64Flag ? decodeBase64(payload, fail) : decodeText(mediaType, payload, fail);
  if (bytes.length === 0) fail('the image is empty');
  if (bytes.length > MAX_BYTES) fail('the image must be at most 512 KiB');
  if (mediaType === 'image/svg+xml') return sanitized(bytes, fail);
  if (!MAGIC[mediaType as RasterType](bytes))
    fail(`the data is not a ${RASTER_NAME[mediaType as RasterType]} image, though its media type is ${mediaType}`);
  const size = checkRasterSize(bytes);
  if (typeof size === 'string') fail(size);
  return { mediaType, bytes, dataUrl: `data:${mediaType};base64,${encodeBase64(bytes)}` };
}

/** `data:<type>[;param=value]*[;base64],<data>`, read with indexOf (no regex to backtrack). */
function splitDataUrl(url: string): { rawType: string; base64Flag: boolean; payload: string } | null {
  if (url.slice(0, 5).toLowerCase() !== 'data:') return null;
  const comma = url.indexOf(',');
  if (comma < 0) return null;
  const params = url.slice(5, comma).split(';');
  const base64Flag = params.length > 1 && params[params.length - 1]!.toLowerCase() === 'base64';
  return { rawType: params[0]!, base64Flag, payload: url.slice(comma + 1) };
}

function decodeBase64(payload: string, fail: (rule: string) => never): Uint8Array {
  const clean = payload.replace(/\s+/g, '');
  if (!BASE64_RE.test(clean) || clean.length % 4 === 1) fail('must be valid base64');
  return base64Bytes(clean);
}

/** Only SVG may come as text (percent-encoded UTF-8). */
function decodeText(mediaType: LogoMediaType, payload: string, fail: (rule: string) => never): Uint8Array {
  if (mediaType !== 'image/svg+xml') fail('raster images must be base64-encoded');
  try {
    return utf8.encode(decodeURIComponent(payload));
  } catch {
    return fail('must be valid percent-encoded UTF-8');
  }
}

const utf8 = new TextEncoder();

function sanitized(bytes: Uint8Array, fail: (rule: string) => never): ParsedLogo {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  try {
    const svg = utf8.encode(sanitizeSvg(text));
    if (svg.length > MAX_BYTES) fail('the image must be at most 512 KiB');
    return { mediaType: 'image/svg+xml', bytes: svg, dataUrl: `data:image/svg+xml;base64,${encodeBase64(svg)}` };
  } catch (err) {
    if (err instanceof SvgRejected) fail(`SVG rejected: ${err.message}`);
    throw err;
  }
}

export { UNDECODABLE } from './undecodable-logo.ts';
