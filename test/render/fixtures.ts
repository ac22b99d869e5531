// Logos for tests, made here (no binary fixtures of unknown origin): an SVG logo and
// the same drawn to PNG by resvg.
import { Resvg } from '@resvg/resvg-js';

export const SHORT_URL = 'http://localhost:3000/r/Ab3dE9z';

export const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">' +
  '<defs><linearGradient id="a" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#f97316"/><stop offset="1" stop-color="#db2777"/></linearGradient></defs>' +
  '<rect width="100" height="100" rx="22" fill="url(#a)"/><path d="M30 70V30h22a14 14 0 0 1 0 28H30" fill="none" stroke="#fff" stroke-width="10" stroke-linejoin="round"/></svg>';

export const LOGO_SVG_DATA_URL = `data:image/svg+xml;base64,${Buffer.from(LOGO_SVG).toString('base64')}`;

let png: Buffer | null = null;

export function logoPng(): Buffer {
  png ??= new Resvg(LOGO_SVG, { fitTo: { mode: 'width', value: 160 }, font: { loadSystemFonts: false } }).render().asPng();
  return png;
}

export function logoPngDataUrl(): string {
  return `data:image/png;base64,${logoPng().toString('base64')}`;
}
