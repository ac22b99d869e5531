// The renderer's face for any JavaScript runtime (server, render workers, the browser's
// live preview): the SVG renderer and the scan warnings, with no font source installed.
// Nothing imported from here may need Node (a test bundles it for the browser and runs it
// without Node's globals); the PNG step (resvg, zlib) stays in ./index.ts.
export { renderSvg, QUIET_ZONE, type RenderOptions } from './render-svg.ts';
export { designWarnings, contrastRatio, MIN_CONTRAST } from './design-warnings.ts';
export { createQrMatrix, type QrMatrix } from './qr-matrix.ts';
export { setFontSource, type FontFile, type FontSource } from './font-source.ts';
export { setShaper, type Shaper } from './shaper-source.ts';
export { frameFontFilesFor } from './frame-text-coverage.ts';
