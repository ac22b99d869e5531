// scripts/tour.sh is run as `bash scripts/tour.sh` from the project, but also from anywhere
// else: it finds the project (and tsx) from its own location, not the caller's folder.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/test-app.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Runs scripts/tour.sh from `cwd`; asynchronous, so the test worker stays responsive while it runs. */
function tourFrom(cwd: string, env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn('bash', [path.join(ROOT, 'scripts/tour.sh')], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    proc.on('error', reject);
    proc.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

// The tour starts a server and makes the owner account: a minute or more on a loaded machine.
describe('scripts/tour.sh', { timeout: 300_000 }, () => {
  it('runs a tour from a folder outside the project, with TOUR_README relative to that folder', async () => {
    const dir = tempDir();
    try {
      fs.writeFileSync(path.join(dir, 'TOUR.md'), '# x\n\n<!-- tour -->\n```sh\ncurl -s http://localhost:3000/healthz\n```\n');
      const run = await tourFrom(dir, { TOUR_README: 'TOUR.md' });
      expect(run.status, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toContain('{"ok":true}');
      expect(run.stdout).toContain('every command succeeded');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
