// Builds the browser app into dist/web when its build is missing or stale. A stamp
// file holds a hash of everything the build reads (web/ sources, the renderer and domain
// code the studio bundles, the lockfile), so a
// fresh build costs one directory walk: `npm start` runs this first on every start.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const WEB = path.join(ROOT, 'web');
export const DIST_WEB = path.join(ROOT, 'dist', 'web');
const STAMP = path.join(DIST_WEB, '.build-stamp');

function sourcesHash(): string {
  const h = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else h.update(path.relative(ROOT, full)).update('\0').update(fs.readFileSync(full)).update('\0');
    }
  };
  walk(WEB);
  // The studio bundles the server's renderer and domain rules: a change there must rebuild
  // the app, or the browser's preview would drift from the server's image.
  walk(path.join(ROOT, 'src', 'render'));
  walk(path.join(ROOT, 'src', 'domain'));
  h.update(fs.readFileSync(path.join(ROOT, 'package-lock.json')));
  return h.digest('hex');
}

export function webBuildIsFresh(): boolean {
  try {
    return fs.readFileSync(STAMP, 'utf8') === sourcesHash() && fs.existsSync(path.join(DIST_WEB, 'index.html'));
  } catch {
    return false;
  }
}

/** Builds when needed; resolves true when it built. */
export async function ensureWebBuild(log: (line: string) => void = (l) => process.stderr.write(l + '\n')): Promise<boolean> {
  const hash = sourcesHash();
  if (fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf8') === hash && fs.existsSync(path.join(DIST_WEB, 'index.html'))) return false;
  log('qrtrack: building the web app (dist/web)…');
  const { build } = await import('vite');
  await build({ configFile: path.join(WEB, 'vite.config.ts'), logLevel: 'warn' });
  fs.writeFileSync(STAMP, hash);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  ensureWebBuild().catch((err: unknown) => {
    process.stderr.write(`qrtrack: the web app did not build: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
