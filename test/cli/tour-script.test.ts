import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProcess } from '../support/processes.ts';
import { tempDir } from '../support/test-app.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

const tourFrom = (cwd: string, env: Record<string, string>) => runProcess('bash', [path.join(ROOT, 'scripts/tour.sh')], { cwd, env });

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
