// Fills: solid colours (with the optional alpha of #rrggbbaa split into an opacity,
// which every SVG consumer understands) and the code's gradient.
import type { QrDesign } from '../domain/design/design.ts';
import { num } from './path-builder.ts';

export interface Rgba {
  r: number;
  g: number;
  b: number;
  /** 0..1 */
  a: number;
}

const HEX_RE = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/** Parses `#rgb`, `#rrggbb`, `#rrggbbaa`; anything else falls back to black (never reached after validation). */
export function parseHex(color: string): Rgba {
  const m = HEX_RE.exec(color);
  if (!m?.[1]) return { r: 0, g: 0, b: 0, a: 1 };
  let hex = m[1];
  if (hex.length === 3) hex = [...hex].map((c) => c + c).join('');
  const byte = (i: number) => parseInt(hex.slice(i, i + 2), 16);
  return { r: byte(0), g: byte(2), b: byte(4), a: hex.length === 8 ? byte(6) / 255 : 1 };
}

function rgbHex(c: Rgba): string {
  return '#' + [c.r, c.g, c.b].map((v) => v.toString(16).padStart(2, '0')).join('');
}

/** ` fill="#rrggbb"` plus ` fill-opacity` when the colour has alpha. */
export function fillAttrs(color: string): string {
  const c = parseHex(color);
  return ` fill="${rgbHex(c)}"` + (c.a < 1 ? ` fill-opacity="${num(c.a)}"` : '');
}

function stop(offset: number, color: string): string {
  const c = parseHex(color);
  const opacity = c.a < 1 ? ` stop-opacity="${num(c.a)}"` : '';
  return `<stop offset="${offset}" stop-color="${rgbHex(c)}"${opacity}/>`;
}

/**
 * Gradient over the code's modules (module units, 0..size), so it spans the whole
 * code whatever the rotation: the line runs through the centre and reaches the
 * corners' projections.
 */
export function gradientDef(id: string, design: QrDesign, size: number): string {
  const stops = stop(0, design.color1) + stop(1, design.color2);
  const c = size / 2;
  if (design.gradientType === 'radial') {
    return `<radialGradient id="${id}" gradientUnits="userSpaceOnUse" cx="${num(c)}" cy="${num(c)}" r="${num(c * Math.SQRT2)}">${stops}</radialGradient>`;
  }
  const rad = (design.gradientRotation * Math.PI) / 180;
  const cos = Math.cos(rad);
  const sin = Math.sin(rad);
  const half = ((Math.abs(cos) + Math.abs(sin)) * size) / 2;
  const [x1, y1, x2, y2] = [c - cos * half, c - sin * half, c + cos * half, c + sin * half].map(num);
  return `<linearGradient id="${id}" gradientUnits="userSpaceOnUse" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}">${stops}</linearGradient>`;
}

/** Short stable hash for element ids, so several codes inlined in one page don't collide. */
export function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}
