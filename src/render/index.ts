// The renderer's public face in Node: QR matrix → styled SVG → PNG, plus scan warnings.
// Importing it installs the Node font source and text shaper; the browser installs its own (see font-source.ts).
// harfbuzzjs loads its wasm from node_modules when imported (top-level await).
import * as harfbuzz from 'harfbuzzjs';
import { setFontSource } from './font-source.ts';
import { nodeFontSource } from './node-font-source.ts';
import { setShaper } from './shaper-source.ts';

setFontSource(nodeFontSource);
setShaper(harfbuzz);

export {
  renderSvg,
  QUIET_ZONE,
  type RenderOptions,
  designWarnings,
  contrastRatio,
  MIN_CONTRAST,
  createQrMatrix,
  type QrMatrix,
} from './portable.ts';
export { drawLogoAlone, renderPng } from './render-png.ts';
export { renderPdf } from './render-pdf.ts';
export { warmFontsFor } from './node-font-source.ts';
