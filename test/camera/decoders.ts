// Three independent QR decoders, as phones' scanner apps use them: zxing (C++, in
// wasm), ZBar (C, in wasm) and jsQR (pure JavaScript, its own detector). Each takes
// RGBA pixels and answers the decoded text or null. Wasm is loaded from the
// installed packages, never from the network.
import { createRequire } from 'node:module';
import type { Options as JsQrOptions, QRCode as JsQrCode } from 'jsqr';
import { scanRGBABuffer } from '@undecaf/zbar-wasm';
import { readBarcodes, type ReaderOptions } from 'zxing-wasm/reader';
import { prepareZxing } from '../render/decode.ts';

export interface Pixels {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

export const DECODERS = ['zxing', 'zbar', 'jsqr'] as const;
/**
 * Not in the goals, for `scan-lab --decoders`: zxing with its denoise pass on. Its default
 * local-average binarizer turns per-pixel noise on a non-black code into speckle; this shows
 * how much of a noise loss is that setting rather than the design.
 */
export const EXTRA_DECODERS = ['zxing-denoise'] as const;
export type DecoderName = (typeof DECODERS)[number] | (typeof EXTRA_DECODERS)[number];

const require = createRequire(import.meta.url);
// jsQR is CommonJS with `exports.default`; require it as Node sees it.
const jsQR = (
  require('jsqr') as { default: (data: Uint8ClampedArray, width: number, height: number, options?: JsQrOptions) => JsQrCode | null }
).default;

// zxing-wasm's defaults (try-harder on), as the zxing-cpp based apps ship them.
const ZXING: ReaderOptions = { formats: ['QRCode'], maxNumberOfSymbols: 1 };

async function zxingWith(px: Pixels, options: ReaderOptions): Promise<string | null> {
  prepareZxing();
  // zxing accepts any { data, width, height } as ImageData; Node has no ImageData class.
  const image = { data: px.data, width: px.width, height: px.height, colorSpace: 'srgb' } as ImageData;
  const hit = (await readBarcodes(image, options)).find((r) => r.isValid);
  return hit ? hit.text : null;
}

const zxing = (px: Pixels) => zxingWith(px, ZXING);
const zxingDenoise = (px: Pixels) => zxingWith(px, { ...ZXING, tryDenoise: true });

async function zbar(px: Pixels): Promise<string | null> {
  const symbols = await scanRGBABuffer(
    px.data.buffer.slice(px.data.byteOffset, px.data.byteOffset + px.data.byteLength) as ArrayBuffer,
    px.width,
    px.height,
  );
  const qr = symbols.find((s) => s.typeName === 'ZBAR_QRCODE');
  return qr ? qr.decode('utf-8') : null;
}

function jsqr(px: Pixels): Promise<string | null> {
  // Our codes are dark on light (light-on-dark designs get a warning), so no inverted pass.
  const hit = jsQR(px.data, px.width, px.height, { inversionAttempts: 'dontInvert' });
  return Promise.resolve(hit ? hit.data : null);
}

export const decode: Record<DecoderName, (px: Pixels) => Promise<string | null>> = { zxing, zbar, jsqr, 'zxing-denoise': zxingDenoise };
