// WebP logos for the rasterizer. resvg draws PNG and JPEG but not WebP (it draws nothing,
// silently), so before a PNG, a PDF or a logo trial a WebP logo is decoded here (libwebp
// compiled to WebAssembly, @jsquash/webp) and handed over as a PNG. The stored design and
// the SVG keep the WebP as given: browsers draw it, and it stays within the 512 KiB limit.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import decodeWebp, { init as initWebp } from '@jsquash/webp/decode.js';
import type { QrDesign } from '../domain/design.ts';
import { ValidationError } from '../domain/errors.ts';
import { LruCache } from '../domain/scans/lru-cache.ts';
import { encodePng } from './png-encoder.ts';

/**
 * Longest side handed to the rasterizer. The largest logo any PNG gives is under 1,000 px
 * (2500 px image), and 1,024 px prints a logo 43 mm wide at 600 dpi; a 16-megapixel WebP
 * (the header limit) is averaged down, which keeps its PNG encoding cheap.
 */
export const MAX_SIDE = 1024;

const WEBP_PREFIX = 'data:image/webp;base64,';

let ready: Promise<void> | null = null;

/** Loads the decoder from the installed package, never from the network. */
function decoderReady(): Promise<void> {
  ready ??= (async () => {
    const wasmFile = createRequire(import.meta.url).resolve('@jsquash/webp/codec/dec/webp_dec.wasm');
    const wasm = await WebAssembly.compile(readFileSync(wasmFile));
    // The package's types list only the options argument; its init also takes the compiled module first.
    await (initWebp as unknown as (module: WebAssembly.Module) => Promise<void>)(wasm);
  })();
  return ready;
}

// By a hash of the data URL: a few logos repeat across renders (a batch export, a studio session).
const drawn = new LruCache<string, string>(4);

export function isWebpLogo(dataUrl: string | null): dataUrl is string {
  return dataUrl !== null && dataUrl.startsWith(WEBP_PREFIX);
}

/** The logo as a PNG data URL (other data URLs as they are), or null for a WebP that does not decode. */
export async function rasterizableLogo(dataUrl: string): Promise<string | null> {
  if (!isWebpLogo(dataUrl)) return dataUrl;
  const key = createHash('sha256').update(dataUrl).digest('base64');
  const hit = drawn.get(key);
  if (hit !== undefined) return hit;
  await decoderReady();
  const bytes = Buffer.from(dataUrl.slice(WEBP_PREFIX.length), 'base64');
  let image: { data: Uint8ClampedArray; width: number; height: number };
  try {
    image = await decodeWebp(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  } catch {
    return null;
  }
  const small = fitWithin(image.data, image.width, image.height, MAX_SIDE);
  const png = `data:image/png;base64,${encodePng(small.data, small.width, small.height, false).toString('base64')}`;
  drawn.set(key, png);
  return png;
}

/** The design with a WebP logo replaced by its PNG, for the rasterizer. */
export async function rasterizableDesign(design: QrDesign): Promise<QrDesign> {
  if (!isWebpLogo(design.customLogoUrl)) return design;
  const png = await rasterizableLogo(design.customLogoUrl);
  // Every stored logo decoded when it was given; one that no longer does is not drawn over.
  if (png === null) throw new ValidationError(UNDECODABLE('customLogoUrl'));
  return { ...design, customLogoUrl: png };
}

export const UNDECODABLE = (field: string) => `${field}: the image cannot be decoded (the file is damaged, or every pixel is transparent)`;

/**
 * Shrinks RGBA pixels by a whole factor until the longest side fits, each output pixel the
 * average of its block, colours weighted by their alpha so transparent pixels add no colour.
 */
export function fitWithin(data: Uint8Array | Uint8ClampedArray, width: number, height: number, maxSide: number): { data: Uint8Array; width: number; height: number } {
  const k = Math.ceil(Math.max(width, height) / maxSide);
  if (k <= 1) return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width, height };
  const w = Math.ceil(width / k);
  const h = Math.ceil(height / k);
  const out = new Uint8Array(w * h * 4);
  for (let oy = 0; oy < h; oy++) {
    for (let ox = 0; ox < w; ox++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      let n = 0;
      for (let y = oy * k; y < Math.min(height, (oy + 1) * k); y++) {
        for (let x = ox * k; x < Math.min(width, (ox + 1) * k); x++) {
          const i = (y * width + x) * 4;
          const alpha = data[i + 3] as number;
          r += (data[i] as number) * alpha;
          g += (data[i + 1] as number) * alpha;
          b += (data[i + 2] as number) * alpha;
          a += alpha;
          n++;
        }
      }
      const o = (oy * w + ox) * 4;
      if (a > 0) {
        out[o] = Math.round(r / a);
        out[o + 1] = Math.round(g / a);
        out[o + 2] = Math.round(b / a);
      }
      out[o + 3] = Math.round(a / n);
    }
  }
  return { data: out, width: w, height: h };
}
