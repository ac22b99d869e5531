// A small PNG encoder for resvg's pixels. resvg's own encoder compresses hard and
// slowly (most of a 1000 px render's time); a QR image is flat colour, which fast
// deflate squeezes well enough, and rows are copied natively, not pixel by pixel.
import zlib from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const COLOR_RGBA = 6;

/**
 * `pixels` are premultiplied RGBA, as tiny-skia (inside resvg) keeps them. When the
 * caller knows every pixel is opaque, premultiplied equals straight and rows are copied as they are.
 */
export function encodePng(pixels: Uint8Array, width: number, height: number, opaque: boolean): Buffer {
  const stride = width * 4;
  const raw = Buffer.allocUnsafe((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const o = y * (stride + 1);
    raw[o] = 0; // filter: none
    raw.set(pixels.subarray(y * stride, (y + 1) * stride), o + 1);
  }
  if (!opaque) unpremultiply(raw, stride, height);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, COLOR_RGBA, 0, 0, 0], 8);
  const idat = zlib.deflateSync(raw, { level: 1 });
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

/** PNG stores straight alpha; only translucent pixels need dividing. */
function unpremultiply(raw: Buffer, stride: number, height: number): void {
  for (let y = 0; y < height; y++) {
    const start = y * (stride + 1) + 1;
    for (let i = start; i < start + stride; i += 4) {
      const a = raw[i + 3]!;
      if (a === 255 || a === 0) continue;
      raw[i] = Math.min(255, Math.round((raw[i]! * 255) / a));
      raw[i + 1] = Math.min(255, Math.round((raw[i + 1]! * 255) / a));
      raw[i + 2] = Math.min(255, Math.round((raw[i + 2]! * 255) / a));
    }
  }
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(data, zlib.crc32(head.subarray(4))) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}
