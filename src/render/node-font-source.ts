// The Node font source: font files resolved from node_modules and read on first use.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FontSource } from './font-source.ts';

const require = createRequire(import.meta.url);

export const nodeFontSource: FontSource = {
  read(file) {
    const buf = readFileSync(require.resolve(file));
    return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  },
};
