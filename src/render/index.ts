// The renderer's public face: QR matrix → styled SVG → PNG, plus scan warnings.
export { renderSvg, QUIET_ZONE, type RenderOptions } from './render-svg.ts';
export { renderLogoTrial, renderPng } from './render-png.ts';
export { createQrMatrix, type QrMatrix } from './qr-matrix.ts';
export { designWarnings, contrastRatio, MIN_CONTRAST } from './design-warnings.ts';
