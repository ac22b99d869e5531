// Where a worker thread's JavaScript is. Built, it is dist/<name>.js (`npm run build`). Run from
// the sources (tests, tsx), the worker's TypeScript is bundled on first use into dist/.sources/
// with esbuild, a dev dependency: tsx cannot load it inside a worker on every Node we support
// (Node 20.20 ignores `--import` in a worker's execArgv and does not apply module hooks a worker
// registers itself, and tsx's require hook cannot load harfbuzzjs, which has a top-level await).
// Packages stay external, resolved from the project.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROJECT_ROOT } from './project-root.ts';

const FROM_SOURCES = import.meta.url.endsWith('.ts');

/** The worker threads, by their name in dist/, and their sources. */
const WORKERS = {
  'render-worker': './render-pool/render-worker.ts',
  'read-worker': './read-pool/read-worker.ts',
  'webhook-sender': './webhooks/sender-worker.ts',
} as const;

export type WorkerName = keyof typeof WORKERS;

const located = new Map<WorkerName, string>();

/** Path of a worker's JavaScript; from the sources, bundled on first use and named by its content's hash. */
export function workerFile(name: WorkerName): string {
  const known = located.get(name);
  if (known !== undefined) return known;
  const file = FROM_SOURCES ? bundleFromSources(name) : builtFile(name);
  located.set(name, file);
  return file;
}

function builtFile(name: WorkerName): string {
  const built = path.join(PROJECT_ROOT, 'dist', `${name}.js`);
  if (!fs.existsSync(built)) throw new Error(`${name}: ${built} is missing: run \`npm run build\``);
  return built;
}

function bundleFromSources(name: WorkerName): string {
  // Loaded only here, so the built server never needs the bundler.
  const { buildSync } = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  const result = buildSync({
    entryPoints: [fileURLToPath(new URL(WORKERS[name], import.meta.url))],
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
  if (code === undefined) throw new Error(`${name}: the bundler wrote nothing`);
  const dir = path.join(PROJECT_ROOT, 'dist', '.sources');
  const file = path.join(dir, `${name}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.js`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dir, { recursive: true });
    // Several processes may start at once: each writes its own file and renames it into place.
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, code);
    fs.renameSync(tmp, file);
  }
  return file;
}
