// Where the render worker's JavaScript is. Built, it is dist/render-worker.js (`npm run build`). Run from the sources (tests, tsx), the worker's TypeScript
// is bundled on first use into dist/.sources/ with esbuild, a dev dependency: tsx cannot load it
// inside a worker on every Node we support (Node 20.20 ignores `--import` in a worker's execArgv
// and does not apply module hooks a worker registers itself, and tsx's require hook cannot load
// harfbuzzjs, which has a top-level await). Packages stay external, resolved from the project.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROJECT_ROOT } from '../project-root.ts';

const FROM_SOURCES = import.meta.url.endsWith('.ts');

let located: string | null = null;

/** Path of the worker's JavaScript; from the sources, bundled on first use and named by its content's hash. */
export function renderWorkerFile(): string {
  if (located !== null) return located;
  if (!FROM_SOURCES) {
    const built = path.join(PROJECT_ROOT, 'dist', 'render-worker.js');
    if (!fs.existsSync(built)) throw new Error(`render worker: ${built} is missing: run \`npm run build\``);
    return (located = built);
  }
  // Loaded only here, so the built server never needs the bundler.
  const { buildSync } = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  const result = buildSync({
    entryPoints: [fileURLToPath(new URL('./render-worker.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    keepNames: true,
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.text;
  if (code === undefined) throw new Error('render worker: the bundler wrote nothing');
  const dir = path.join(PROJECT_ROOT, 'dist', '.sources');
  const file = path.join(dir, `render-worker-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.js`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dir, { recursive: true });
    // Several processes may start at once: each writes its own file and renames it into place.
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, code);
    fs.renameSync(tmp, file);
  }
  return (located = file);
}
