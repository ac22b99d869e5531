// The SVG renderer runs in the browser too (the studio's live preview): nothing it
// imports, directly or through our own modules, may be a Node built-in. Fonts and the
// text shaper come in through font-source.ts and shaper-source.ts instead.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

function graph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      if (!spec) continue;
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec));
      // A deep import (qrcode/lib/core/…) belongs to its package.
      else
        packages.add(
          spec
            .split('/')
            .slice(0, spec.startsWith('@') ? 2 : 1)
            .join('/'),
        );
    }
  };
  visit(resolve(root, entry));
  return { files, packages };
}

describe('the SVG renderer’s import graph', () => {
  it('has no Node built-in, and draws text with portable packages only', () => {
    const { files, packages } = graph('src/render/render-svg.ts');
    // typebox: the design's one schema (src/domain/design/design-schema.ts), plain JavaScript.
    expect([...packages].sort()).toEqual(['bidi-js', 'fflate', 'image-size', 'qrcode', 'saxes', 'typebox']);
    expect(files.has(resolve(root, 'src/render/text-paths.ts'))).toBe(true);
    const builtins = [...packages].filter((p) => p.startsWith('node:') || ['fs', 'path', 'module', 'url', 'crypto', 'zlib'].includes(p));
    expect(builtins).toEqual([]);
    expect([...packages].filter((p) => /harfbuzz|pdfkit|resvg/.test(p))).toEqual([]);
  });
});
