// The project's folder (the one holding package.json), found from this module's location: the
// same answer from the sources (src/…, under tsx or Vitest) and from the bundles (dist/…).
import fs from 'node:fs';
import path from 'node:path';

function folderWithPackageJson(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json in ${from} or above it`);
  }
}

export const PROJECT_ROOT = folderWithPackageJson(import.meta.dirname);
