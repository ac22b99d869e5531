// The Node font source: font files resolved from node_modules and read on first use.
//
// Reading and unpacking a font file is the costly part of drawing frame text the first
// time (tens of ms; docs/designs.md); the layout after is under a millisecond. Render workers
// may pay it synchronously, but the main thread answers the short links, so it warms the files
// a text needs first (warmFontsFor: reads and inflate on libuv's pool), then finds them ready.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { inflate } from 'node:zlib';
import type { FontSource } from './font-source.ts';
import { frameFontFilesFor } from './frame-text-coverage.ts';
import { assembleSfnt, woffTables, woffToSfnt } from './woff.ts';

const require = createRequire(import.meta.url);
const inflateAsync = promisify(inflate);

/** Files unpacked ahead of their first synchronous read; each is handed over once, then dropped. */
const ready = new Map<string, Uint8Array>();
/** Files that need no more warming: ready, or already read by the renderer. */
const settled = new Set<string>();
const warming = new Map<string, Promise<void>>();
/** Files this process read synchronously, not warmed first (tests hold the main thread to none). */
let blockingReads = 0;

export function blockingFontReads(): number {
  return blockingReads;
}

export const nodeFontSource: FontSource = {
  read(file) {
    settled.add(file);
    const sfnt = ready.get(file);
    if (sfnt) {
      ready.delete(file);
      return sfnt;
    }
    blockingReads++;
    const buf = readFileSync(require.resolve(file));
    return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  },
};

async function unpack(file: string): Promise<void> {
  const buf = await readFile(require.resolve(file));
  const woff = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  const parsed = woffTables(woff);
  const sfnt = parsed
    ? assembleSfnt(
        parsed.flavor,
        await Promise.all(parsed.tables.map(async (t) => (t.packed ? { ...t, data: new Uint8Array(await inflateAsync(t.data)) } : t))),
      )
    : woffToSfnt(woff);
  if (!settled.has(file)) ready.set(file, sfnt);
  settled.add(file);
}

/** Makes every font file drawing `text` readable without blocking (see the top of this file). */
export async function warmFontsFor(text: string): Promise<void> {
  const pending: Promise<void>[] = [];
  // Each word too: a line broken before digits or punctuation draws them in the first font
  // that has them, where in the whole text they stayed in the font before them.
  const files = new Set([text, ...text.split(/\s+/u)].flatMap((part) => frameFontFilesFor(part)));
  for (const file of files) {
    if (settled.has(file)) continue;
    let p = warming.get(file);
    if (!p) {
      p = unpack(file).finally(() => warming.delete(file));
      warming.set(file, p);
    }
    pending.push(p);
  }
  await Promise.all(pending);
}
