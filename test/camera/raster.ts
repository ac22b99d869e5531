// SVG → RGBA pixels on white paper (a transparent code is printed on something light).
import { Resvg } from '@resvg/resvg-js';
import type { Pixels } from './decoders.ts';

export function rasterize(svg: string, width?: number): Pixels {
  const fit = width ? { fitTo: { mode: 'width' as const, value: width } } : {};
  const img = new Resvg(svg, { background: '#ffffff', font: { loadSystemFonts: false }, logLevel: 'off', ...fit }).render();
  return {
    data: new Uint8ClampedArray(img.pixels.buffer, img.pixels.byteOffset, img.pixels.byteLength),
    width: img.width,
    height: img.height,
  };
}

/** `px` copied onto white paper `width` × `height` with its top-left corner at (x, y); what falls outside is cut. */
export function placeOn(px: Pixels, width: number, height: number, x: number, y: number): Pixels {
  const data = new Uint8ClampedArray(width * height * 4).fill(255);
  const skip = Math.max(0, -x);
  const cols = Math.min(px.width, width - x) - skip;
  if (cols <= 0) return { data, width, height };
  for (let row = Math.max(0, -y); row < px.height && y + row < height; row++) {
    data.set(px.data.subarray((row * px.width + skip) * 4, (row * px.width + skip + cols) * 4), ((y + row) * width + x + skip) * 4);
  }
  return { data, width, height };
}
