// The browser app: Preact with esbuild's JSX transform (no Babel), built into dist/web
// and served by the API process under /app/. `npm run dev:web` serves it with hot
// reload and passes /v1 to a server on :3000.
import path from 'node:path';
import { defineConfig } from 'vite';

const here = import.meta.dirname;

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
    // Pages share small modules (a limit, a helper): each would be a chunk of its own, a request
    // more on a cold open and too small to compress (the build skips what would not shrink).
    // Chunks of pure definitions under 4 KB are merged into one loaded with them.
    rollupOptions: { output: { experimentalMinChunkSize: 4096 } },
  },
  server: { proxy: { '/v1': 'http://localhost:3000' } },
}));
