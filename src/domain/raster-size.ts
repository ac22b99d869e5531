// Decoded size of a raster logo, read from its headers before anything decodes it: a
// few hundred compressed bytes can claim gigapixels (a "decompression bomb"), and the
// rasterizer allocates what the header says.
import { imageSize } from 'image-size';

/** A logo is drawn at most ~1,600 px wide (see logo-layer.ts); 16 megapixels is generous. */
export const MAX_LOGO_PIXELS = 4096 * 4096;
export const MAX_LOGO_SIDE = 8192;
export const RASTER_LIMIT_TEXT = `at most 16 megapixels (${MAX_LOGO_SIDE} px a side) are allowed`;

export interface RasterSize {
  width: number;
  height: number;
}

/** The size the image would decode to, or a sentence saying why it is refused. */
export function checkRasterSize(bytes: Uint8Array): RasterSize | string {
  let size: RasterSize;
  try {
    const read = imageSize(bytes);
    size = { width: read.width, height: read.height };
    // A JPEG may hold several frames (image-size reads the first); decoders differ on which they use.
    if (read.type === 'jpg') size = largestJpegFrame(bytes) ?? size;
  } catch {
    return 'the image header cannot be read';
  }
  const { width, height } = size;
  if (!(width > 0 && height > 0)) return 'the image header cannot be read';
  if (width > MAX_LOGO_SIDE || height > MAX_LOGO_SIDE || width * height > MAX_LOGO_PIXELS) {
    return `the image is ${width}×${height} pixels; ${RASTER_LIMIT_TEXT}`;
  }
  return size;
}

/** Start-of-frame markers (SOF0–SOF15 less DHT, JPG and DAC), which carry the frame size. */
const isSof = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

/**
 * Walks every marker segment of a JPEG (skipping entropy-coded data after each scan) and
 * returns the largest frame size declared anywhere; null when the structure is broken.
 * One pass over the bytes.
 */
function largestJpegFrame(b: Uint8Array): RasterSize | null {
  let width = 0;
  let height = 0;
  let i = 2;
  while (i + 3 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i += 1; // fill byte
      continue;
    }
    if (marker === 0xd9) break; // end of image
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      i += 2;
      continue;
    }
    const length = (b[i + 2]! << 8) | b[i + 3]!;
    if (length < 2) return null;
    if (isSof(marker) && i + 8 < b.length) {
      height = Math.max(height, (b[i + 5]! << 8) | b[i + 6]!);
      width = Math.max(width, (b[i + 7]! << 8) | b[i + 8]!);
    }
    i += 2 + length;
    if (marker === 0xda) {
      // Entropy-coded data runs to the next marker that is not a stuffed 0x00 or a restart.
      while (i + 1 < b.length && !(b[i] === 0xff && b[i + 1] !== 0 && !(b[i + 1]! >= 0xd0 && b[i + 1]! <= 0xd7))) i++;
    }
  }
  return width > 0 && height > 0 ? { width, height } : null;
}
