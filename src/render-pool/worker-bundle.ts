// Render workers run plain JavaScript: the worker's TypeScript is bundled once per process into
// node_modules/.cache/qrtrack/, with every package left external (resolved from the project, as
// the sources resolve them). tsx cannot load it inside a worker on every Node we support: Node
// 20.20 ignores `--import` in a worker's execArgv and does not apply module hooks a worker
// registers itself, and tsx's require hook cannot load harfbuzzjs (top-level await).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const ENTRY = fileURLToPath(new URL('./render-worker.ts', import.meta.url));
const CACHE_DIR = path.resolve(fileURLToPath(new URL('../../node_modules/.cache/qrtrack', import.meta.url)));

let bundled: string | null = null;

/** Path of the bundled worker, built on first use; the file name is its content's hash. */
export function renderWorkerFile(): string {
  if (bundled !== null) return bundled;
  const result = buildSync({
    entryPoints: [ENTRY],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.text;
  if (code === undefined) throw new Error('render worker: the bundler wrote nothing');
  const file = path.join(CACHE_DIR, `render-worker-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    // Several processes may start at once: each writes its own file and renames it into place.
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, code);
    fs.renameSync(tmp, file);
  }
  bundled = file;
  return file;
}
