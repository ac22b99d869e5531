// Design + text → self-contained SVG. Layers, back to front: background, frame,
// frame text, then the code (dots, eyes, logo) in module units under one transform.
// Each colour layer is a single <path>, so there are no seams between modules.
import type { QrDesign } from '../domain/design/design.ts';
import { ValidationError } from '../domain/errors.ts';
import { dotsPath, type DotGrid } from './dot-shapes.ts';
import { eyesPath } from './eye-shapes.ts';
import { frameLayout, type Box } from './frames.ts';
import { frameTextMarkup } from './frame-text.ts';
import { hasLogo, logoBox, logoMarkup, type LogoBox } from './logo-layer.ts';
import { fillAttrs, gradientDef, shortHash } from './paint.ts';
import { num } from './path-builder.ts';
import { createQrMatrix, isInFinder, type QrMatrix } from './qr-matrix.ts';

export interface RenderOptions {
  /** Output width in pixels; defaults to design.resolution. */
  size?: number;
}

/** Modules of light margin around the code (the standard's minimum). */
export const QUIET_ZONE = 4;
const SIZE_LIMITS = { min: 64, max: 4096 };

export function renderSvg(data: string, design: QrDesign, opts: RenderOptions = {}): string {
  const width = outputWidth(opts.size ?? design.resolution);
  const matrix = createQrMatrix(data, design.errorCorrectionLevel);
  const frame = frameLayout(design.frameStyle, width);
  const parts: string[] = [];
  const defs: string[] = [];
  if (!design.bgTransparent) parts.push(`<rect width="${width}" height="${frame.height}"${fillAttrs(design.bgColor)}/>`);
  if (frame.path) parts.push(`<path d="${frame.path}"${fillAttrs(design.frameColor)}/>`);
  if (frame.text) parts.push(frameTextMarkup(design.frameText, frame.text, design.frameTextColor));
  parts.push(codeLayer(matrix, design, frame.code, width, defs));
  const head = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${frame.height}" viewBox="0 0 ${width} ${frame.height}">`;
  return head + (defs.length ? `<defs>${defs.join('')}</defs>` : '') + parts.join('') + '</svg>';
}

function outputWidth(size: number): number {
  if (!Number.isInteger(size) || size < SIZE_LIMITS.min || size > SIZE_LIMITS.max) {
    throw new ValidationError(`size: must be an integer between ${SIZE_LIMITS.min} and ${SIZE_LIMITS.max}`);
  }
  return size;
}

/** Module size and offset: whole pixels when modules are big enough, so edges are crisp. */
export function placeCode(n: number, box: Box): { scale: number; x: number; y: number } {
  let scale = box.w / (n + 2 * QUIET_ZONE);
  if (scale >= 3) scale = Math.floor(scale);
  const pad = (box.w - n * scale) / 2;
  const snap = (v: number) => (Number.isInteger(scale) ? Math.round(v) : v);
  return { scale, x: snap(box.x + pad), y: snap(box.y + pad) };
}

function codeLayer(matrix: QrMatrix, design: QrDesign, box: Box, width: number, defs: string[]): string {
  const n = matrix.size;
  const place = placeCode(n, box);
  const logo = hasLogo(design) ? logoBox(n, design.errorCorrectionLevel, design.logoSize) : null;
  const dotFill = codeFill(design, n, defs);
  const dots = dotsPath(dotGrid(matrix, design.hideDotsBehindLogo ? logo : null), design.dotsStyle);
  const eyes = eyesPath(n, design.cornerSquare, design.cornerDot);
  let body: string;
  if (design.customEyeColors) {
    body = pathEl(dots, dotFill) + pathEl(eyes, fillAttrs(design.eyeColor));
  } else {
    body = pathEl(dots + eyes, dotFill);
  }
  if (logo) {
    const margin = (design.logoMargin * width) / 1000 / place.scale;
    const iconColor = design.bgTransparent ? '#ffffff' : design.bgColor.slice(0, 7);
    body += logoMarkup(design, { box: logo, margin, dotFill, iconColor });
  }
  return `<g transform="translate(${num(place.x)} ${num(place.y)}) scale(${num(place.scale)})">${body}</g>`;
}

function pathEl(d: string, fill: string): string {
  return d ? `<path d="${d}"${fill}/>` : '';
}

/** Fill of the dots: a solid colour, or a gradient defined once in <defs>. */
function codeFill(design: QrDesign, n: number, defs: string[]): string {
  if (!design.isGradient) return fillAttrs(design.color1);
  const key = [design.gradientType, design.gradientRotation, design.color1, design.color2, n].join('|');
  const id = `qrg-${shortHash(key)}`;
  defs.push(gradientDef(id, design, n));
  return ` fill="url(#${id})"`;
}

function dotGrid(matrix: QrMatrix, hidden: LogoBox | null): DotGrid {
  const n = matrix.size;
  const mask = new Uint8Array(n * n);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const i = y * n + x;
      if (!matrix.dark[i] || isInFinder(n, x, y) || (hidden && inBox(hidden, x, y))) continue;
      mask[i] = 1;
    }
  }
  return { size: n, isDot: (x, y) => mask[y * n + x] === 1 };
}

function inBox(b: LogoBox, x: number, y: number): boolean {
  return x >= b.start && y >= b.start && x < b.start + b.side && y < b.start + b.side;
}
