// The CLI's side of key expiry and rotation: keys create --expires, keys rotate, keys list.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync as runCli } from '../support/processes.ts';
import { tempDir } from '../support/test-app.ts';

let dir: string;
let env: Record<string, string>;
beforeAll(() => {
  dir = tempDir('qrtrack-key-life-');
  env = { DATABASE_URL: `sqlite:${path.join(dir, 'keys.db')}` };
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('qrtrack keys: expiry and rotation', { timeout: 180_000 }, () => {
  it('creates a key that expires, rotates it with a grace period, and lists both', async () => {
    const created = await runCli(['keys', 'create', '--account', 'demo', '--scopes', 'qr:read', '--expires', '90d', '--json'], env);
    expect(created.status, created.stderr).toBe(0);
    const key = JSON.parse(created.stdout) as { id: string; key: string; expiresAt: string };
    expect(Date.parse(key.expiresAt) - Date.now()).toBeGreaterThan(89 * 86_400_000);

    const rotated = await runCli(['keys', 'rotate', key.id, '--grace', '12h', '--json'], env);
    expect(rotated.status, rotated.stderr).toBe(0);
    const successor = JSON.parse(rotated.stdout) as { id: string; replaces: string; key: string; previousExpiresAt: string };
    expect(successor.replaces).toBe(key.id);
    expect(successor.key).toMatch(/^qrt_/);
    expect(Math.abs(Date.parse(successor.previousExpiresAt) - Date.now() - 12 * 3_600_000)).toBeLessThan(60_000);

    const list = await runCli(['keys', 'list', '--account', 'demo'], env);
    expect(list.stdout).toContain(`rotated, works until ${successor.previousExpiresAt} (successor ${successor.id})`);
    expect(list.stdout).toMatch(new RegExp(`^${successor.id} .* active$`, 'm'));
    expect(list.stdout).not.toContain(successor.key);
  });

  it('says what is wrong with a bad expiry, a grace over 7 days or an unknown key', async () => {
    const cases: Array<[string[], string]> = [
      [['keys', 'create', '--account', 'demo', '--scopes', 'qr:read', '--expires', 'soon'], 'keys create: --expires: must be'],
      [['keys', 'create', '--account', 'demo', '--scopes', 'qr:read', '--expires', '2001-01-01T00:00:00Z'], 'must be in the future'],
      [['keys', 'rotate', '00000000-0000-4000-8000-000000000000'], 'keys rotate: no key with id'],
      [['keys', 'rotate', 'x', '--grace', '8d'], 'keys rotate: --grace: must be at most 7d'],
    ];
    for (const [args, message] of cases) {
      const res = await runCli(args, env);
      expect(res.status, args.join(' ')).toBe(2);
      expect(res.stderr).toContain(message);
    }
  });
});
