// Logos as the rasterizer can draw them. resvg draws nothing, silently, for two kinds:
// - a WebP (it decodes PNG and JPEG only): decoded here (libwebp compiled to WebAssembly,
//   @jsquash/webp) and handed over as a PNG;
// - a raster image inside an SVG logo: the logo goes into the code as an <image>, and resvg
//   draws no image inside an image. Such a logo is drawn here on its own, as the top-level
//   document, into a PNG (its nested WebPs turned into PNGs first).
// This happens before a PNG, a PDF or a logo trial. The stored design and the SVG keep the
// logo as given: browsers draw it, and it stays within the 512 KiB limit.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import decodeWebp, { init as initWebp } from '@jsquash/webp/decode.js';
import { Resvg } from '@resvg/resvg-js';
import type { QrDesign } from '../domain/design/design.ts';
import { ValidationError } from '../domain/errors.ts';
import { LruCache } from '../domain/scans/lru-cache.ts';
import { encodePng } from './png-encoder.ts';
import { UNDECODABLE } from '../domain/design/logo.ts';

/**
 * Longest side handed to the rasterizer. The largest logo any PNG gives is under 1,000 px
 * (2500 px image), and 1,024 px prints a logo 43 mm wide at 600 dpi; a 16-megapixel WebP
 * (the header limit) is averaged down, which keeps its PNG encoding cheap.
 */
export const MAX_SIDE = 1024;

const WEBP_PREFIX = 'data:image/webp;base64,';
const SVG_PREFIX = 'data:image/svg+xml;base64,';
/** Images inside a sanitized SVG logo: the sanitizer writes every nested image in this form. */
const NESTED_RASTER = 'data:image/';
const NESTED_WEBP = /data:image\/webp;base64,[A-Za-z0-9+/]+=*/g;

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

/**
 * The logo as the rasterizer can draw it: a WebP as a PNG data URL, an SVG with raster
 * images inside as a PNG of the whole logo, anything else as it is; null when a WebP does
 * not decode.
 */
export async function rasterizableLogo(dataUrl: string): Promise<string | null> {
  if (dataUrl.startsWith(WEBP_PREFIX)) return webpAsPng(dataUrl);
  if (!dataUrl.startsWith(SVG_PREFIX)) return dataUrl;
  const svg = Buffer.from(dataUrl.slice(SVG_PREFIX.length), 'base64').toString('utf8');
  if (!svg.includes(NESTED_RASTER)) return dataUrl;
  return remembered(dataUrl, async () => {
    let flat = svg;
    for (const webp of new Set(svg.match(NESTED_WEBP) ?? [])) {
      const png = await webpAsPng(webp);
      if (png === null) return null;
      flat = flat.split(webp).join(png);
    }
    return `data:image/png;base64,${svgAsPng(flat).toString('base64')}`;
  });
}

/** `make`'s answer for `dataUrl`, kept by a hash of it (failures are not kept). */
async function remembered(dataUrl: string, make: () => Promise<string | null>): Promise<string | null> {
  const key = createHash('sha256').update(dataUrl).digest('base64');
  const hit = drawn.get(key);
  if (hit !== undefined) return hit;
  const made = await make();
  if (made !== null) drawn.set(key, made);
  return made;
}

/** An SVG drawn as the top-level document, its longest side MAX_SIDE pixels. */
function svgAsPng(svg: string): Buffer {
  const draw = (mode: 'width' | 'height') =>
    new Resvg(svg, { font: { loadSystemFonts: false }, logLevel: 'off', fitTo: { mode, value: MAX_SIDE } }).render();
  let image = draw('width');
  if (image.height > MAX_SIDE) image = draw('height');
  return encodePng(image.pixels, image.width, image.height, false);
}

function webpAsPng(dataUrl: string): Promise<string | null> {
  return remembered(dataUrl, async () => {
    await decoderReady();
    const bytes = Buffer.from(dataUrl.slice(WEBP_PREFIX.length), 'base64');
    let image: { data: Uint8ClampedArray; width: number; height: number };
    try {
      image = await decodeWebp(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    } catch {
      return null;
    }
    const small = fitWithin(image.data, image.width, image.height, MAX_SIDE);
    return `data:image/png;base64,${encodePng(small.data, small.width, small.height, false).toString('base64')}`;
  });
}

/** The design with its logo as the rasterizer can draw it (see rasterizableLogo). */
export async function rasterizableDesign(design: QrDesign): Promise<QrDesign> {
  if (design.customLogoUrl === null) return design;
  const png = await rasterizableLogo(design.customLogoUrl);
  if (png === design.customLogoUrl) return design;
  // Every stored logo decoded when it was given; one that no longer does is not drawn over.
  if (png === null) throw new ValidationError(UNDECODABLE('customLogoUrl'));
  return { ...design, customLogoUrl: png };
}

export { UNDECODABLE } from '../domain/design/logo.ts';

/**
 * Shrinks RGBA pixels by a whole factor until the longest side fits, each output pixel the
 * average of its block, colours weighted by their alpha so transparent pixels add no colour.
 */
export function fitWithin(
  data: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  maxSide: number,
): { data: Uint8Array; width: number; height: number } {
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
