// Where the renderer gets its text shaper (HarfBuzz, compiled to WebAssembly). Like the
// font files (font-source.ts), the engine is installed from outside: the Node entry
// (`./index.ts`) imports harfbuzzjs, which loads its wasm from node_modules; the browser
// installs the same module once it has fetched and compiled the wasm its own way. Shaping
// itself is synchronous once installed, so rendering stays synchronous. In the browser:
// fetch the font files frameFontFilesFor(text) names (frame-text-coverage.ts), install
// them with setFontSource, install harfbuzzjs here, then render.
import type * as HarfBuzz from 'harfbuzzjs';

export type Shaper = typeof HarfBuzz;

let shaper: Shaper | null = null;

export function setShaper(next: Shaper): void {
  shaper = next;
}

export function getShaper(): Shaper {
  if (!shaper) throw new Error('no text shaper installed: import the renderer through src/render/index.ts');
  return shaper;
}
