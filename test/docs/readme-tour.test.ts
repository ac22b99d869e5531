// The README's tour runs as written: scripts/tour.sh executes every marked shell block in
// order against a fresh server, and stops at the first command that fails.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/test-app.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const tour = (env: Record<string, string> = {}) =>
  spawnSync('bash', [path.join(ROOT, 'scripts/tour.sh')], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 120_000 });

describe('the README tour', () => {
  it('runs every command of the README against a fresh server', () => {
    const run = tour();
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('302 https://example.com/menu');
    expect(run.stdout).toContain('{"ok":true}');
    expect(run.stdout).toContain('every command succeeded');
    // Every marked block ran: the first and the last command of the tour both appear.
    expect(run.stderr).toContain('keys create --account demo');
    expect(run.stderr).toMatch(/curl -s -X DELETE http:\/\/127\.0\.0\.1:\d+\/v1\/qr\/[0-9a-f-]{36} /);
  });

  it('fails when a command of the tour fails, e.g. a request answered 401', () => {
    const dir = tempDir();
    try {
      const readme = path.join(dir, 'README.md');
      fs.writeFileSync(readme, '# x\n\n<!-- tour -->\n```sh\ncurl -s http://localhost:3000/v1/qr\necho not reached\n```\n');
      const run = tour({ TOUR_README: readme });
      expect(run.status).toBe(22); // curl's exit status for an HTTP error
      expect(run.stdout).toContain('missing or malformed Authorization header');
      expect(run.stdout).not.toContain('not reached');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
