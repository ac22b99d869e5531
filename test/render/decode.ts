// Test helper: decodes a rendered PNG with zxing (the C++ decoder phones' apps are
// built on), loading its wasm from the installed package, never from the network.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Resvg } from '@resvg/resvg-js';
import { prepareZXingModule, readBarcodes, type ReaderOptions } from 'zxing-wasm/reader';

const require = createRequire(import.meta.url);
let prepared = false;

/** Loads zxing's wasm from the installed package (once); every zxing decode in the tests goes through here. */
export function prepareZxing(): void {
  if (prepared) return;
  const wasm = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
  prepareZXingModule({
    overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer },
    fireImmediately: true,
  });
  prepared = true;
}

const OPTIONS: ReaderOptions = { formats: ['QRCode'], maxNumberOfSymbols: 1, tryHarder: true };

/** Text of the one QR code in the PNG, or null. Transparent PNGs are seen on white paper. */
export async function decodePng(png: Buffer, transparent = false): Promise<string | null> {
  prepareZxing();
  const input = transparent ? onWhite(png) : new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
  const results = await readBarcodes(input, OPTIONS);
  const hit = results.find((r) => r.isValid);
  return hit ? hit.text : null;
}

/** zxing accepts any { data, width, height } as ImageData; Node has no ImageData class. */
function onWhite(png: Buffer): ImageData {
  const size = readPngSize(png);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}"><image width="${size.width}" height="${size.height}" href="data:image/png;base64,${png.toString('base64')}"/></svg>`;
  const img = new Resvg(svg, { background: '#ffffff', font: { loadSystemFonts: false } }).render();
  const pixels = { data: new Uint8ClampedArray(img.pixels), width: img.width, height: img.height, colorSpace: 'srgb' };
  return pixels as ImageData;
}

export function readPngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
