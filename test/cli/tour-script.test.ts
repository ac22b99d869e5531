// scripts/tour.sh is run as `bash scripts/tour.sh` from the project, but also from anywhere
// else: it finds the project (and tsx) from its own location, not the caller's folder.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/test-app.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('scripts/tour.sh', () => {
  it('runs a tour from a folder outside the project, with TOUR_README relative to that folder', () => {
    const dir = tempDir();
    try {
      fs.writeFileSync(path.join(dir, 'TOUR.md'), '# x\n\n<!-- tour -->\n```sh\ncurl -s http://localhost:3000/healthz\n```\n');
      const run = spawnSync('bash', [path.join(ROOT, 'scripts/tour.sh')], {
        cwd: dir,
        env: { ...process.env, TOUR_README: 'TOUR.md' },
        encoding: 'utf8',
        timeout: 120_000,
      });
      expect(run.status, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toContain('{"ok":true}');
      expect(run.stdout).toContain('every command succeeded');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
