// The live scan check, in its own chunk: the preview is drawn on a canvas at the size a
// phone's camera sees a printed code, then decoded with zxing (the C++ decoder many
// scanner apps are built on, as WebAssembly served by the app itself).
import { prepareZXingModule, readBarcodes, type ReaderOptions } from 'zxing-wasm/reader';
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';

const OVERRIDES = { locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path) };
prepareZXingModule({ overrides: OVERRIDES });

/** Fetches and compiles the decoder now (the studio calls this once its first preview is on screen), so the first check does not wait for it. */
export async function warmUp(): Promise<void> {
  await prepareZXingModule({ overrides: OVERRIDES, fireImmediately: true });
}

/** About what a phone's camera resolves of a code held at arm's length. */
export const PHONE_SIZE = 360;
// A phone scans a moment, not as hard as it can: no slow extra passes.
const OPTIONS: ReaderOptions = { formats: ['QRCode'], maxNumberOfSymbols: 1, tryHarder: false };

export type ScanResult = { ok: true; text: string } | { ok: false; reason: 'unreadable' | 'wrong-text'; text?: string };

/** Rasterises `svg` `PHONE_SIZE` px wide on white paper and decodes it. */
export async function scanCheck(svg: string, expected: string): Promise<ScanResult> {
  const image = await loadImage(svg);
  const scale = PHONE_SIZE / image.naturalWidth;
  const canvas = document.createElement('canvas');
  canvas.width = PHONE_SIZE;
  canvas.height = Math.round(image.naturalHeight * scale);
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) throw new Error('no 2D canvas');
  ctx.fillStyle = '#ffffff'; // a transparent code is printed on something light
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
  const results = await readBarcodes(ctx.getImageData(0, 0, canvas.width, canvas.height), OPTIONS);
  const hit = results.find((r) => r.isValid);
  if (!hit) return { ok: false, reason: 'unreadable' };
  return hit.text === expected ? { ok: true, text: hit.text } : { ok: false, reason: 'wrong-text', text: hit.text };
}

function loadImage(svg: string): Promise<HTMLImageElement> {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  return new Promise<HTMLImageElement>((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error('the preview could not be drawn'));
    img.src = url;
  }).finally(() => URL.revokeObjectURL(url));
}
