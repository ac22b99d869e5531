// Which built files a page of the web app needs first, from Vite's manifest
// (dist/web/.vite/manifest.json): the studio's chunk with the chunks and stylesheets it imports,
// its renderer, its scan check and the decoder's WebAssembly, by their hashed names. The server
// names them in the page's HTML, so a browser asks for them with the page instead of after the
// app's script has run (on mobile data each step is a round trip of half a second or more).

/** An entry of Vite's manifest (the fields read here). */
export interface ManifestChunk {
  file: string;
  name?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
  assets?: string[];
}

export type Manifest = Record<string, ManifestChunk>;

/** Addresses under /app/ of what the studio needs, the app entry's own files left out (index.html names them). */
export interface StudioAssets {
  /** The studio's stylesheets (its layout: the first paint needs them). */
  styles: string[];
  /** The studio's chunk and the chunks it imports. */
  studio: string[];
  /** The renderer's chunk and its imports. */
  renderer: string[];
  /** The scan check's chunk and its imports. */
  scanCheck: string[];
  /** zxing's WebAssembly, which the scan check fetches. */
  decoder: string | null;
}

const RENDERER = 'pages/studio/browser-renderer.ts';
const SCAN_CHECK = 'pages/studio/scan-check.ts';

/** The studio page's chunk: its module's own, or the manual chunk `studio` that holds it (web/vite.config.ts). */
function studioKey(manifest: Manifest): string | undefined {
  if (manifest['pages/studio/studio-page.tsx']) return 'pages/studio/studio-page.tsx';
  return Object.keys(manifest).find((k) => k.startsWith('_') && manifest[k]?.name === 'studio' && manifest[k]?.file.endsWith('.js'));
}

/** The studio's files, or null when the manifest lacks them (an older build). */
export function studioAssets(manifest: Manifest, base = '/app/'): StudioAssets | null {
  const entry = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
  const STUDIO = studioKey(manifest);
  if (entry === undefined || STUDIO === undefined || !manifest[RENDERER] || !manifest[SCAN_CHECK]) return null;
  const loaded = closure(manifest, entry);
  const url = (file: string) => `${base}${file}`;
  const of = (key: string) => {
    const own = closure(manifest, key);
    return {
      scripts: own.scripts.filter((f) => !loaded.scripts.includes(f)).map(url),
      styles: own.styles.filter((f) => !loaded.styles.includes(f)).map(url),
    };
  };
  const studio = of(STUDIO);
  const decoder = Object.entries(manifest).find(([k]) => /\/zxing_reader\.wasm$/.test(k))?.[1].file;
  return {
    styles: studio.styles,
    studio: studio.scripts,
    renderer: of(RENDERER).scripts,
    scanCheck: of(SCAN_CHECK).scripts,
    decoder: decoder === undefined ? null : url(decoder),
  };
}

/** A chunk's file and every file it imports statically, with their stylesheets, in load order. */
function closure(manifest: Manifest, key: string): { scripts: string[]; styles: string[] } {
  const scripts: string[] = [];
  const styles: string[] = [];
  const seen = new Set<string>();
  const walk = (k: string) => {
    const chunk = manifest[k];
    if (chunk === undefined || seen.has(k)) return;
    seen.add(k);
    for (const i of chunk.imports ?? []) walk(i);
    scripts.push(chunk.file);
    for (const c of chunk.css ?? []) if (!styles.includes(c)) styles.push(c);
  };
  walk(key);
  return { scripts, styles };
}
