// Logs: readable lines for a person at a terminal, JSON lines when piped or collected.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../support/processes.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const hasScript = spawnSync('script', ['--version']).status === 0;
const ANSI = /\u001b\[\d+m/;

let server: RunningServer | null = null;
afterEach(async () => {
  await server?.stop('SIGTERM');
  server = null;
});

describe('server logs', () => {
  it('are JSON lines when stdout is not a terminal', async () => {
    server = await startServer({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'info' });
    // The server answers /healthz before its log line has crossed the pipe to us.
    await expect.poll(() => server!.output(), { timeout: 10_000 }).toContain('Server listening');
    // The first run also prints its setup link as a plain line for the person starting it.
    const lines = server
      .output()
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    expect(lines.length).toBeGreaterThan(0);
    const listening = lines.map((l) => JSON.parse(l) as { level: number; msg: string }).find((l) => l.msg.startsWith('Server listening'));
    expect(listening?.level).toBe(30);
  });

  it('are readable lines when LOG_FORMAT=pretty', async () => {
    server = await startServer({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' });
    await expect.poll(() => server!.output(), { timeout: 10_000 }).toContain('Server listening');
    expect(server.output()).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] .*INFO.*: .*Server listening at http:\/\/127\.0\.0\.1:\d+/m);
    expect(() => JSON.parse(server!.output().split('\n')[0]!)).toThrow();
    // Not a terminal (a pipe, as to a log file): no colour codes in the text.
    expect(server.output()).not.toContain('\u001b[');
  });

  it.skipIf(!hasScript)('are readable, coloured lines by default on a terminal', async () => {
    // `script` gives the server a real pseudo-terminal as stdout.
    const proc = spawn('script', ['-qefc', `${process.execPath} --import tsx src/server.ts`, '/dev/null'], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: '0',
        PUBLIC_BASE_URL: 'http://localhost:3000',
        HOST: '127.0.0.1',
        DATABASE_URL: 'sqlite::memory:',
        LOG_LEVEL: 'info',
        LOG_FORMAT: '',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const exited = new Promise((r) => proc.on('exit', r));
    let out: string;
    try {
      out = await new Promise<string>((resolve, reject) => {
        let text = '';
        proc.stdout.on('data', (d: Buffer) => {
          text += d.toString();
          if (text.includes('Server listening')) resolve(text);
        });
        proc.on('exit', () => reject(new Error(`exited before listening: ${text}`)));
      });
    } finally {
      proc.kill('SIGTERM'); // script ends the server with the terminal
      await exited;
    }
    expect(out).toMatch(ANSI);
    expect(out).toMatch(/INFO.*Server listening/);
    expect(out).not.toContain('"level"');
  });

  for (const [level, format] of [
    ['trace', 'json'],
    ['debug', 'pretty'],
  ] as const) {
    it(`never write a token, key or link secret, even at LOG_LEVEL=${level} (${format})`, async () => {
      server = await startServer({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: level, LOG_FORMAT: format });
      const token = randomBytes(32).toString('base64url');
      const key = `qrt_${'k'.repeat(40)}`;
      const paths = [
        `/app/invite/${token}`,
        `/app/reset/${token}`,
        `/app/setup/${token}`,
        `/v1/invites/${token}`,
        `/v1/password-resets/${token}`,
        `/v1/setup/${token}`,
        `/v1/qr?token=short-secret-value`,
        `/v1/qr/${key}`,
        `/app/codes?ref=${token}`,
      ];
      for (const p of paths) await fetch(`${server.url}${p}`);
      await fetch(`${server.url}/v1/invites/${token}/accept`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"email":"a@b.c","password":"x"}',
      });
      await fetch(`${server.url}/healthz?last=1`);
      await expect.poll(() => server!.output(), { timeout: 10_000 }).toContain('/healthz?last=1');
      const out = server.output();
      expect(out).toContain('/app/invite/[token]');
      expect(out).toContain('/v1/invites/[token]/accept');
      expect(out).not.toContain(token);
      expect(out).not.toContain(key);
      expect(out).not.toContain('short-secret-value');
    }, 120_000);
  }

  it('refuses an unknown LOG_FORMAT with one line naming the variable', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: ROOT,
      env: { ...process.env, LOG_FORMAT: 'xml' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('qrtrack: invalid configuration: LOG_FORMAT: must be pretty or json, got "xml"\n');
  });
});
