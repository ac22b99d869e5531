import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProcess } from '../support/processes.ts';
import { tempDir } from '../support/test-app.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const tour = (env: Record<string, string> = {}) => runProcess('bash', [path.join(ROOT, 'scripts/tour.sh')], { env });

// Each case starts a server and runs the tour's processes: minutes on a loaded machine.
describe('the README tour', { timeout: 300_000 }, () => {
  it('runs every command of the README against a fresh server', async () => {
    const run = await tour();
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('302 https://example.com/menu');
    expect(run.stdout).toContain('{"ok":true}');
    // Each answer ends its line: the closing line is not glued to the last answer, nor two answers together.
    expect(run.stdout).toMatch(/\n== README tour: every command succeeded\n$/);
    expect(run.stdout).not.toContain('}{');
    // Every marked block ran: the first and the last command of the tour both appear. The key
    // is for the owner's account from step 1, and the files went to a scratch folder.
    expect(run.stderr).toContain('keys create --scopes qr:read,qr:write');
    expect(run.stderr).toContain('for account "Tour"');
    expect(run.stderr).toMatch(/[$+] cd \/.*\/scratch\/tmp\.\w+\n/);
    expect(run.stderr).toMatch(/curl -s -w '\\n' -X DELETE http:\/\/127\.0\.0\.1:\d+\/v1\/qr\/[0-9a-f-]{36} /);
  });

  it('fails when a command of the tour fails, e.g. a request answered 401', async () => {
    const dir = tempDir();
    try {
      const readme = path.join(dir, 'README.md');
      fs.writeFileSync(readme, '# x\n\n<!-- tour -->\n```sh\ncurl -s http://localhost:3000/v1/qr\necho not reached\n```\n');
      const run = await tour({ TOUR_README: readme });
      expect(run.status).toBe(22); // curl's exit status for an HTTP error
      expect(run.stdout).toContain('missing or malformed Authorization header');
      expect(run.stdout).not.toContain('not reached');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
