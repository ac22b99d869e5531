// `npm start` under a supervisor: the supervisor signals the npm process, not the server.
// npm forwards SIGTERM to the shell running the script, and dash (Debian's /bin/sh) does
// not exec the last command of `sh -c`, so without `exec` in the script the shell dies
// and the server lives on, orphaned, holding its port.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/processes.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

let dir: string;
let npm: ChildProcess | null = null;
let tree: number[] = [];

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qrtrack-npm-start-'));
});
afterAll(() => {
  // Whatever the outcome, leave no process behind.
  for (const pid of [...tree, npm?.pid ?? 0]) if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Every process below `root`, read from /proc (parent pid is the 4th field of /proc/PID/stat). */
function descendants(root: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parentOf.set(Number(entry), Number(fields[1]));
    } catch {
      // the process ended while we looked
    }
  }
  const found: number[] = [];
  let frontier = [root];
  while (frontier.length) {
    frontier = [...parentOf].filter(([, ppid]) => frontier.includes(ppid)).map(([pid]) => pid);
    found.push(...frontier);
  }
  return found;
}

/** Running, not merely a zombie waiting for its new parent to reap it. */
function isAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Every process below npm ends, a moment after npm itself. */
async function survivors(pids: number[]): Promise<number[]> {
  const deadline = Date.now() + 10_000;
  while (pids.some(isAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return pids.filter(isAlive);
}

function commandOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

describe('npm start under a supervisor', () => {
  it('stops the server, frees its port and exits 0 when the npm process gets SIGTERM', { timeout: 120_000 }, async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    // npm and the script's `node` resolve to the Node running this test, as in CI's per-version runs.
    const PATH = `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`;
    npm = spawn('npm', ['start', '--silent'], {
      cwd: ROOT,
      env: {
        ...process.env,
        PATH,
        LOG_LEVEL: 'info',
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_BASE_URL: url,
        DATABASE_URL: `sqlite:${path.join(dir, 'qrtrack.db')}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    npm.stdout?.on('data', (d) => (out += d));
    npm.stderr?.on('data', (d) => (out += d));
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      npm!.on('exit', (code, signal) => resolve({ code, signal })),
    );

    const deadline = Date.now() + 90_000;
    for (;;) {
      expect(npm.exitCode, `npm start exited early: ${out}`).toBeNull();
      const ok = await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      expect(Date.now() < deadline, `the server did not start: ${out}`).toBe(true);
      await new Promise((r) => setTimeout(r, 200));
    }
    tree = descendants(npm.pid!);
    // The built server, not the TypeScript sources through a compiler (`prestart` built dist/ when stale).
    const servers = tree.filter((pid) => /^\S*node dist\/server\.js/.test(commandOf(pid)));
    expect(servers, `no server process below npm: ${tree.map(commandOf).join(' | ')}`).toHaveLength(1);

    npm.kill('SIGTERM');
    const { code, signal } = await exited;
    expect((await survivors(tree)).map(commandOf), 'processes left running after npm exited').toEqual([]);
    expect(await portIsFree(port)).toBe(true);
    expect({ code, signal }, out).toEqual({ code: 0, signal: null });
    expect(out).toMatch(/"signal":"SIGTERM","msg":"shutting down"/);
    // A quiet start: no warning from npm, the build or the server, but the one that says a
    // loopback public address cannot be opened by a phone (this test listens on 127.0.0.1).
    const lines = out.split('\n');
    expect(lines.filter((l) => /is an address only this machine can reach/.test(l))).toHaveLength(1);
    expect(lines.filter((l) => !/is an address only this machine can reach/.test(l)).join('\n')).not.toMatch(/warn|"level":[4-6]0/i);
  });
});
