// SVG → PNG with resvg (a Rust rasterizer shipped as an npm binary): no canvas,
// no system fonts (the text is already outlines), exactly `size` pixels wide.
import { Resvg } from '@resvg/resvg-js';
import type { QrDesign } from '../domain/design/design.ts';
import { largestLogoSide, logoTrialSvg } from './logo-layer.ts';
import { parseHex } from './paint.ts';
import { encodePng } from './png-encoder.ts';
import { renderSvg, type RenderOptions } from './render-svg.ts';

export function renderPng(data: string, design: QrDesign, opts: RenderOptions = {}): Buffer {
  const svg = renderSvg(data, design, opts);
  const image = rasterize(svg);
  // An opaque background rect covers the whole canvas, so every pixel is opaque.
  const opaque = !design.bgTransparent && parseHex(design.bgColor).a === 1;
  return encodePng(image.pixels, image.width, image.height, opaque);
}

/**
 * Draws `dataUrl` alone: as the largest logo an image `width` pixels wide can have (the
 * create-time trial of its cost), or small when `width` is null (decoding costs the same at
 * any size). Answers whether it drew anything: resvg draws a raster it cannot decode (a
 * truncated file, a bad checksum) as nothing, silently, and stored such a logo became an
 * empty white hole in the code.
 */
export function drawLogoAlone(dataUrl: string, width: number | null): boolean {
  const pixels = rasterize(logoTrialSvg(dataUrl, width === null ? 32 : largestLogoSide(width))).pixels;
  for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) return true;
  return false;
}

function rasterize(svg: string) {
  return new Resvg(svg, { font: { loadSystemFonts: false }, logLevel: 'off' }).render();
}
