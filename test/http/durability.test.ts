// Every answered scan survives kill -9: the answer goes out only after the commit.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, runCli, startServer } from '../support/processes.ts';

let dir: string;
let env: Record<string, string>;
let server: RunningServer | null = null;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qrtrack-kill-'));
  env = { DATABASE_URL: `sqlite:${path.join(dir, 'qrtrack.db')}` };
});
afterAll(async () => {
  await server?.stop('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('durability of scans', () => {
  it('finds every answered scan after the server is killed with SIGKILL', async () => {
    const key = runCli(['keys', 'create', '--account', 'k', '--scopes', 'qr:read,qr:write'], env).stdout.trim().split('\n').at(-1)!;
    server = await startServer(env);
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const created = await fetch(`${server.url}/v1/qr`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: 'k', url: 'https://example.com' }),
    });
    const { item } = (await created.json()) as { item: { id: string; code: string } };

    // Concurrent waves, so answers come out of group-committed batches; count only what was answered.
    let answered = 0;
    for (let wave = 0; wave < 10; wave++) {
      const results = await Promise.all(
        Array.from({ length: 30 }, () =>
          fetch(`${server!.url}/r/${item.code}`, {
            redirect: 'manual',
            headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Mobile/15E148 Safari/604.1' },
          }),
        ),
      );
      answered += results.filter((r) => r.status === 302).length;
    }
    expect(answered).toBe(300);
    expect(await server.stop('SIGKILL')).toBe('SIGKILL');

    server = await startServer(env);
    const stats = await fetch(`${server.url}/v1/qr/${item.id}/stats`, { headers });
    const body = (await stats.json()) as { totals: { scans: number; scansInRange: number } };
    expect(body.totals.scans).toBe(300);
    expect(body.totals.scansInRange).toBe(300);
    expect(await server.stop('SIGTERM')).toBe(0);
    server = null;
    // Two server starts from the sources: on a loaded 2-core machine each took over 10 s.
  }, 90_000);
});
