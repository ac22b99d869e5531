// The browser app: Preact with esbuild's JSX transform (no Babel), built into dist/web
// and served by the API process under /app/. `npm run dev:web` serves it with hot
// reload and passes /v1 to a server on :3000.
import path from 'node:path';
import { defineConfig } from 'vite';

const here = import.meta.dirname;

type ModuleInfoOf = (id: string) => { isEntry: boolean; importers: readonly string[] } | null;
const entryGraph = new Map<string, true>();
/** Whether the app's entry imports `id`, directly or through other static imports. */
function inEntryGraph(id: string, info: ModuleInfoOf, seen = new Set<string>()): boolean {
  const known = entryGraph.get(id);
  if (known !== undefined) return known;
  if (seen.has(id)) return false;
  seen.add(id);
  const m = info(id);
  const yes = m !== null && (m.isEntry || m.importers.some((i) => inEntryGraph(i, info, seen)));
  // A no met inside an import cycle may be partial (the walk stopped at a module already seen): only a yes is kept.
  if (yes) entryGraph.set(id, true);
  return yes;
}

export default defineConfig(({ command }) => ({
  root: here,
  base: '/app/',
  // jsxDev follows NODE_ENV, which a build started by the tests has as 'test': the bundle
  // then carried every element's file name and line (the entry was 55 KiB, not 41).
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact', jsxDev: command === 'serve' },
  resolve: {
    alias: {
      // The renderer (shared with the server) imports opentype.js's default export, which only
      // its CommonJS build has; Node loads that one, so the browser bundle takes it too.
      'opentype.js': path.join(here, '..', 'node_modules', 'opentype.js', 'dist', 'opentype.js'),
      // harfbuzzjs imports Node's `module` on a branch only Node takes.
      module: path.join(here, 'node-module-stub.ts'),
    },
  },
  build: {
    outDir: path.join(here, '..', 'dist', 'web'),
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    // Every browser we target has modulepreload; the polyfill would only add bytes.
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    // dist/web/.vite/manifest.json: the server names the studio's files in the page that opens it
    // (src/http/web-app/app-manifest.ts), so they load with the page, not after its script.
    manifest: true,
    // Pages share small modules (a dialog, the tag editor, a helper): left alone each is a chunk
    // of its own, and the studio opened cold asked for eight and more scripts at once, past a
    // browser's six connections: on mobile data a second wave of round trips held the preview
    // back. What the app's entry loads itself stays with the entry (named here, or Rollup would
    // pull it into the first manual chunk that uses it, and the sign-in page would load that
    // chunk); the studio's modules travel as one chunk (the renderer and the scan check stay
    // lazy), the pieces several pages share as another.
    rollupOptions: {
      output: {
        experimentalMinChunkSize: 4096,
        manualChunks(id, { getModuleInfo }) {
          if (inEntryGraph(id, getModuleInfo)) return 'index';
          if (/[\\/]web[\\/]pages[\\/]studio[\\/](?!browser-renderer|scan-check)/.test(id)) return 'studio';
          if (
            /[\\/]web[\\/](components[\\/](tag-editor|code-actions|delete-dialog)|pages[\\/]codes[\\/](save-file|codes-query))\./.test(id)
          )
            return 'shared-pages';
          return undefined;
        },
      },
    },
  },
  server: { proxy: { '/v1': 'http://localhost:3000' } },
}));
