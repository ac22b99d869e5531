// The one build: esbuild bundles the server, the CLI and the worker threads (render, read, webhook sender) into dist/ (npm
// packages stay external: native addons, wasm and data files load from node_modules as they
// do from the sources), and Vite builds the web app into dist/web. Plain JavaScript, so the
// freshness check `npm start` and the bin run first costs no compiler.
//   node scripts/build.mjs              builds everything
//   node scripts/build.mjs --if-stale   builds only the parts whose inputs changed since their build
//   node scripts/build.mjs web|server   builds one part
// A part is fresh when its stamp (dist/.build-<part>.json, dated when that build started) lists
// inputs none of which is newer than the stamp, and its outputs exist.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = path.join(ROOT, 'dist');

/** Inputs of every part besides the files its bundler reports reading. */
const COMMON_INPUTS = ['package.json', 'package-lock.json', 'scripts/build.mjs'];

const PARTS = {
  server: {
    outputs: ['server.js', 'cli.js', 'render-worker.js', 'read-worker.js', 'webhook-sender.js'].map((f) => path.join(DIST, f)),
    build: buildServer,
  },
  web: {
    outputs: [path.join(DIST, 'web', 'index.html')],
    build: buildWeb,
  },
};

/** @typedef {keyof typeof PARTS} Part */
/** @typedef {(line: string) => void} Log */

const stampFile = (/** @type {Part} */ part) => path.join(DIST, `.build-${part}.json`);

/** @param {Part} part */
export function isFresh(part) {
  const stamp = stampFile(part);
  let builtAt;
  let inputs;
  try {
    builtAt = fs.statSync(stamp).mtimeMs;
    inputs = JSON.parse(fs.readFileSync(stamp, 'utf8')).inputs;
  } catch {
    return false;
  }
  if (!Array.isArray(inputs) || !PARTS[part].outputs.every((f) => fs.existsSync(f))) return false;
  // A dist/ deployed without its sources is as fresh as it was built.
  if (!fs.existsSync(path.join(ROOT, 'src'))) return true;
  for (const input of inputs) {
    let mtime;
    try {
      mtime = fs.statSync(path.join(ROOT, input)).mtimeMs;
    } catch {
      return false; // an input was removed or renamed
    }
    if (mtime > builtAt) return false;
  }
  return true;
}

/**
 * Builds the parts that are stale (or all of `parts` with `force`); resolves the parts built.
 * @param {{ parts?: Part[], force?: boolean, log?: Log }} [options]
 * @returns {Promise<Part[]>}
 */
export async function build({ parts = ['server', 'web'], force = false, log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const built = [];
  for (const part of parts) {
    if (!force && isFresh(part)) continue;
    const startedAt = new Date();
    const inputs = await PARTS[part].build(log);
    const stamp = stampFile(part);
    fs.mkdirSync(DIST, { recursive: true });
    fs.writeFileSync(stamp, `${JSON.stringify({ inputs: [...new Set([...COMMON_INPUTS, ...inputs])].sort() }, null, 1)}\n`);
    // Dated when the build started: a source saved during the build leaves it stale.
    fs.utimesSync(stamp, startedAt, startedAt);
    built.push(part);
  }
  return built;
}

/** A module id as a path relative to the project, or null for a package's file or a virtual module. */
function projectFile(/** @type {string} */ id) {
  const file = path.relative(ROOT, id.startsWith('file://') ? fileURLToPath(id) : (id.split('?')[0] ?? id));
  if (file.startsWith('..') || path.isAbsolute(file) || file.split(path.sep).includes('node_modules')) return null;
  return fs.existsSync(path.join(ROOT, file)) ? file : null;
}

/** Every folder under `dir` (relative to the project), itself included. */
function foldersUnder(/** @type {string} */ dir) {
  const found = [dir];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    if (entry.isDirectory()) found.push(...foldersUnder(path.join(dir, entry.name)));
  }
  return found;
}

/** @param {Log} log */
async function buildServer(log) {
  log('qrtrack: building the server, the CLI and the workers (dist/)…');
  const esbuild = await loadBuildTool('esbuild');
  // Chunk names change with their content: the last build's would pile up.
  fs.rmSync(path.join(DIST, 'chunks'), { recursive: true, force: true });
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: {
      server: 'src/server.ts',
      cli: 'src/cli.ts',
      'render-worker': 'src/render-pool/render-worker.ts',
      'read-worker': 'src/read-pool/read-worker.ts',
      'webhook-sender': 'src/webhooks/sender-worker.ts',
    },
    outdir: DIST,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Resolved from node_modules at run time: native addons, wasm, fonts and the country database
    // are found by their package paths, and `npm install --omit=dev` installs exactly these.
    packages: 'external',
    // Error classes and log serializers keep the names they have in the sources.
    keepNames: true,
    // Shared code and each dynamic import in chunks of their own: `qrtrack --help` loads neither
    // the server's packages nor the renderer's wasm, which a single file would import up front.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
  });
  // Folders too: a file added, removed or renamed changes its folder's mtime.
  return [
    ...Object.keys(result.metafile.inputs)
      .map(projectFile)
      .filter((f) => f !== null),
    ...foldersUnder('src'),
  ];
}

/** @param {Log} log */
async function buildWeb(log) {
  log('qrtrack: building the web app (dist/web)…');
  const vite = await loadBuildTool('vite');
  const outputs = await vite.build({
    root: path.join(ROOT, 'web'),
    configFile: path.join(ROOT, 'web', 'vite.config.ts'),
    logLevel: 'warn',
  });
  await precompress(path.join(DIST, 'web', 'assets'), log);
  const ids = [];
  for (const output of Array.isArray(outputs) ? outputs : [outputs]) {
    if (!('output' in output)) continue;
    for (const chunk of output.output) if (chunk.type === 'chunk') ids.push(...chunk.moduleIds);
  }
  const webFiles = [];
  const walk = (/** @type {string} */ dir) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      webFiles.push(file);
    }
  };
  walk('web');
  return [...ids.map(projectFile).filter((f) => f !== null), 'web', ...webFiles];
}

/** What compresses: text and WebAssembly. Fonts (woff is zlib inside) and images would not shrink. */
const COMPRESSIBLE = /\.(js|mjs|css|wasm|svg|json|html|txt)$/;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes `file.br` and `file.gz` beside each compressible asset, at the highest levels (paid
 * once here, never per request): the server sends them to a browser that accepts them
 * (@fastify/static's preCompressed). Only where it saves a tenth or more, so a file without
 * them is one that compression would not help. All at once: zlib's work runs on libuv's threads.
 * @param {string} dir
 * @param {Log} log
 */
async function precompress(dir, log) {
  const files = fs.readdirSync(dir).filter((f) => COMPRESSIBLE.test(f));
  let raw = 0;
  let sent = 0;
  await Promise.all(
    files.map(async (name) => {
      const file = path.join(dir, name);
      const body = await fs.promises.readFile(file);
      const [br, gz] = await Promise.all([
        brotli(body, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            ...(name.endsWith('.wasm') ? {} : { [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT }),
          },
        }),
        gzip(body, { level: zlib.constants.Z_BEST_COMPRESSION }),
      ]);
      raw += body.length;
      sent += body.length;
      if (br.length <= body.length * 0.9) {
        await fs.promises.writeFile(`${file}.br`, br);
        sent += br.length - body.length;
      }
      if (gz.length <= body.length * 0.9) await fs.promises.writeFile(`${file}.gz`, gz);
    }),
  );
  log(`qrtrack: ${files.length} web assets precompressed, ${Math.round(raw / 1024)} KiB → ${Math.round(sent / 1024)} KiB with brotli`);
}

/**
 * The bundlers are dev dependencies: installed with --omit=dev, a stale build says what to do.
 * @param {'esbuild' | 'vite'} name
 */
async function loadBuildTool(name) {
  try {
    return await import(name);
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'ERR_MODULE_NOT_FOUND') throw err;
    throw new Error(
      `the build in dist/ is missing or older than the sources, and ${name} (a dev dependency) is not installed: run \`npm install\`, then \`npm run build\``,
    );
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const named = args.filter((a) => a in PARTS);
  const unknown = args.filter((a) => !(a in PARTS) && a !== '--if-stale');
  if (unknown.length > 0) {
    process.stderr.write(`usage: node scripts/build.mjs [--if-stale] [server|web]... (unknown: ${unknown.join(' ')})\n`);
    process.exit(2);
  }
  build({ parts: named.length > 0 ? /** @type {Part[]} */ (named) : undefined, force: !args.includes('--if-stale') }).catch((err) => {
    process.stderr.write(`qrtrack: the build failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
