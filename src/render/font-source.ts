// Where the renderer gets its font files. The renderer itself is portable (it runs in the
// server, in render workers and in the browser's live preview), so it never touches the file
// system: the Node entry (`./index.ts`) installs a source that reads from node_modules, and the
// browser installs one that has fetched the files before the first render that needs them.

/** A font file named by its npm module path, e.g. `@fontsource/inter/files/inter-latin-700-normal.woff`. */
export type FontFile = string;

export interface FontSource {
  /** The file's bytes, or undefined when this source does not have it (yet). */
  read(file: FontFile): Uint8Array | undefined;
}

let source: FontSource | null = null;

export function setFontSource(next: FontSource): void {
  source = next;
}

/** The bytes of `file`; throws when no source is installed or the source lacks the file. */
export function readFont(file: FontFile): Uint8Array {
  if (!source) throw new Error('no font source installed: import the renderer through src/render/index.ts');
  const bytes = source.read(file);
  if (!bytes) throw new Error(`font not available: ${file}`);
  return bytes;
}
