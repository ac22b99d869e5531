// The service as a user runs it: the CLI makes a key, a real server on a real SQLite file answers.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, runCli, startServer } from '../support/processes.ts';

let dir: string;
let env: Record<string, string>;
let server: RunningServer | null = null;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qrtrack-e2e-'));
  env = { DATABASE_URL: `sqlite:${path.join(dir, 'qrtrack.db')}` };
});
afterAll(async () => {
  await server?.stop('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the CLI and a real server', () => {
  it('creates keys, serves the API with them, revokes them, and shuts down cleanly on SIGTERM', async () => {
    const created = runCli(['keys', 'create', '--account', 'demo', '--scopes', 'qr:read,qr:write', '--name', 'laptop'], env);
    expect(created.status, created.stderr).toBe(0);
    const key = created.stdout.trim().split('\n').at(-1)!;
    expect(key).toMatch(/^qrt_[0-9A-Za-z]{40}$/);
    expect(fs.readFileSync(path.join(dir, 'qrtrack.db')).includes(Buffer.from(key))).toBe(false);

    const json = runCli(['keys', 'create', '--account', 'demo', '--scopes', 'qr:read', '--json'], env);
    const parsed = JSON.parse(json.stdout.trim().split('\n').at(-1)!);
    expect(parsed).toMatchObject({ account: 'demo', scopes: ['qr:read'] });

    server = await startServer(env);
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const res = await fetch(`${server.url}/v1/qr`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ title: 'Menu', url: 'https://example.com' }),
    });
    expect(res.status).toBe(201);
    // Idle connections outlive the CLI calls below (a proxy's idle timeout, too), so reusing one never races its close.
    expect(res.headers.get('keep-alive')).toBe('timeout=72');
    const { item } = (await res.json()) as { item: { shortUrl: string; id: string } };
    expect(item.shortUrl).toBe(`${server.url}/r/${item.shortUrl.split('/').pop()}`);

    // The listening server answers /r/* on its fast path: same answers as the Fastify route.
    const code = item.shortUrl.split('/').pop()!;
    const iphone = { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Mobile/15E148 Safari/604.1' };
    const redirect = await fetch(`${server.url}/r/${code}?utm_source=poster`, { redirect: 'manual', headers: iphone });
    expect(redirect.status).toBe(302);
    // The visitor's query string goes on to the destination (forwardQuery, on by default).
    expect(redirect.headers.get('location')).toBe('https://example.com/?utm_source=poster');
    expect(redirect.headers.get('cache-control')).toBe('no-store');
    expect(redirect.headers.get('x-robots-tag')).toBe('noindex');
    const head = await fetch(`${server.url}/r/${code}`, { method: 'HEAD', redirect: 'manual', headers: iphone });
    expect(head.status).toBe(302);
    const unknown = await fetch(`${server.url}/r/zzzzzzz`, { redirect: 'manual' });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/^text\/html/);
    expect((await fetch(`${server.url}/r/%E0%A4%A`, { redirect: 'manual' })).status).toBe(404);
    const stats = await fetch(`${server.url}/v1/qr/${item.id}/stats`, { headers: auth });
    expect(((await stats.json()) as { totals: { scans: number } }).totals.scans).toBe(1);

    const list = runCli(['keys', 'list', '--account', 'demo', '--json'], env);
    const keys = JSON.parse(list.stdout) as { id: string; name: string; lastUsedAt: string | null }[];
    expect(keys).toHaveLength(2);
    const laptop = keys.find((k) => k.name === 'laptop')!;
    expect(laptop.lastUsedAt).not.toBeNull();

    expect(runCli(['keys', 'revoke', laptop.id], env).status).toBe(0);
    const after = await fetch(`${server.url}/v1/qr`, { headers: auth });
    expect(after.status).toBe(401);

    expect(await server.stop('SIGTERM')).toBe(0);
    server = null;
  });

  it('shuts down within SHUTDOWN_TIMEOUT_MS even when a client never finishes its request', async () => {
    const slow = await startServer({ DATABASE_URL: 'sqlite::memory:', SHUTDOWN_TIMEOUT_MS: '500' });
    const socket = net.connect(Number(new URL(slow.url).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    // Headers promising 1,000 bytes, then six of them, then nothing.
    socket.write('POST /v1/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a": ');
    socket.on('error', () => {});
    await new Promise((resolve) => setTimeout(resolve, 200));
    const code = await Promise.race([
      slow.stop('SIGTERM'),
      new Promise((resolve) => setTimeout(() => resolve('still running after 20 s'), 20_000)),
    ]);
    socket.destroy();
    if (code === 'still running after 20 s') await slow.stop('SIGKILL');
    expect(code).toBe(0);
    expect(slow.output()).toMatch(/cutting the connections of requests still in flight/);
  }, 60_000);

  it('drains clients that keep scanning over kept-alive connections: their connections are closed, and the process exits without the cut', async () => {
    // Kept-alive connections busy with scans were never idle, so the server waited for the
    // grace period to cut them (9.8 s under a flood, past a container runtime's 10 s).
    const busyEnv = { DATABASE_URL: `sqlite:${path.join(dir, 'busy.db')}` };
    const key = runCli(['keys', 'create', '--account', 'busy', '--scopes', 'qr:write'], busyEnv).stdout.trim().split('\n').at(-1)!;
    const busy = await startServer({ ...busyEnv, SHUTDOWN_TIMEOUT_MS: '30000' });
    const made = await fetch(`${busy.url}/v1/qr`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Busy', url: 'https://example.com/busy' }),
    });
    const { code: shortCode } = ((await made.json()) as { item: { code: string } }).item;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    const port = Number(new URL(busy.url).port);
    let stop = false;
    const scan = () =>
      new Promise<void>((resolve) => {
        const req = http.get({ host: '127.0.0.1', port, path: `/r/${shortCode}`, agent }, (res) => {
          res.resume();
          res.on('end', () => resolve());
        });
        req.on('error', () => {
          stop = true; // refused: the server no longer accepts
          resolve();
        });
      });
    const loops = Array.from({ length: 8 }, async () => {
      while (!stop) await scan();
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const code = await Promise.race([
      busy.stop('SIGTERM'),
      new Promise((resolve) => setTimeout(() => resolve('still running after 20 s'), 20_000)),
    ]);
    stop = true;
    await Promise.all(loops);
    agent.destroy();
    if (code === 'still running after 20 s') await busy.stop('SIGKILL');
    expect(code).toBe(0);
    expect(busy.output()).not.toMatch(/cutting the connections/);
  }, 60_000);

  it('serves a SQLite file from one process: a second server refuses to start, and the claim goes with a killed one', async () => {
    // A second server kept its own short-link cache and redirected codes deleted through the first.
    const shared = { DATABASE_URL: `sqlite:${path.join(dir, 'shared', 'one.db')}` };
    const first = await startServer(shared);
    try {
      await expect(startServer(shared)).rejects.toThrow(
        /DATABASE_URL: another qrtrack server \(pid \d+\) serves .*one\.db; SQLite is served by one process/,
      );
      // The CLI still works beside it.
      expect(runCli(['accounts', 'list'], shared).status).toBe(0);
    } finally {
      expect(await first.stop('SIGKILL')).toBe('SIGKILL');
    }
    // The lock went with the killed process: the next server starts.
    const next = await startServer(shared);
    await expect(startServer(shared)).rejects.toThrow(/another qrtrack server \(pid \d+\)/);
    expect(await next.stop('SIGTERM')).toBe(0);
  }, 120_000);

  it('refuses bad CLI input with a clear message and a non-zero exit', () => {
    const noScopes = runCli(['keys', 'create', '--account', 'x'], env);
    expect(noScopes.status).not.toBe(0);
    expect(noScopes.stderr).toMatch(/--scopes/);
    const badScope = runCli(['keys', 'create', '--account', 'x', '--scopes', 'qr:admin'], env);
    expect(badScope.status).not.toBe(0);
    expect(badScope.stderr).toMatch(/unknown scope/);
    expect(runCli(['keys', 'revoke', 'nope'], env).status).not.toBe(0);
  });

  it('exits non-zero with one clear line on invalid configuration', async () => {
    await expect(startServer({ ...env, DATABASE_URL: 'mysql://nope' })).rejects.toThrow(/DATABASE_URL: must start with/);
  });

  it('names the variable when the start fails past the checks: a database it cannot open, a host it cannot listen on', async () => {
    await expect(startServer({ ...env, DATABASE_URL: 'sqlite:/etc/passwd/x.db' })).rejects.toThrow(
      /qrtrack: failed to start: DATABASE_URL: cannot open the database: /,
    );
    await expect(startServer({ ...env, HOST: 'no-such-host.invalid' })).rejects.toThrow(
      /qrtrack: failed to start: HOST\/PORT: cannot listen on no-such-host\.invalid:\d+: /,
    );
  }, 60_000);
});
