// SVG → RGBA pixels on white paper (a transparent code is printed on something light).
import { Resvg } from '@resvg/resvg-js';
import type { Pixels } from './decoders.ts';

export function rasterize(svg: string, width?: number): Pixels {
  const fit = width ? { fitTo: { mode: 'width' as const, value: width } } : {};
  const img = new Resvg(svg, { background: '#ffffff', font: { loadSystemFonts: false }, logLevel: 'off', ...fit }).render();
  return { data: new Uint8ClampedArray(img.pixels.buffer, img.pixels.byteOffset, img.pixels.byteLength), width: img.width, height: img.height };
}
