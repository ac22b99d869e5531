// Real processes for end-to-end tests: the CLI and the server, as a user runs them.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
// `node --import tsx` runs the TypeScript in this very process. (The tsx CLI would start a
// child process, and a SIGKILL sent to the CLI would leave the real server running.)
const NODE_TS = [process.execPath, '--import', 'tsx'] as const;
// The CLI runs built (dist/cli.js, what bin/qrtrack.js runs; the tests' global setup builds it
// from the sources first): from the sources each run spent a second of CPU compiling them, and
// the CLI files' many runs beside another test file took a test past its time-out on a slow day.
const CLI = path.join(ROOT, 'dist/cli.js');

export interface ProcessResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; asynchronous, so the test worker stays responsive while it runs. */
export function runProcess(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const proc = spawn(command, args, {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    proc.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    proc.on('error', reject);
    proc.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Runs `qrtrack ARGS` as a user would, without blocking the test worker. */
export function runCliAsync(args: readonly string[], env: Record<string, string>): Promise<ProcessResult> {
  return runProcess(process.execPath, [CLI, ...args], { env: { LOG_LEVEL: 'silent', ...env } });
}

export function runCli(args: string[], env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const res = spawnSync(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface RunningServer {
  url: string;
  proc: ChildProcess;
  output(): string;
  /** Sends the signal and resolves with the exit code (or signal name). */
  stop(signal?: NodeJS.Signals): Promise<number | string | null>;
}

/** `fdLimit`: the server may open at most this many files and sockets (its hard limit: Node raises the soft one). */
export async function startServer(env: Record<string, string>, { fdLimit }: { fdLimit?: number } = {}): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const [node, ...flags] = NODE_TS;
  const args = [...flags, path.join(ROOT, 'src/server.ts')];
  const command = fdLimit === undefined ? node : 'sh';
  const quoted = [node, ...args].map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(' ');
  const argv = fdLimit === undefined ? args : ['-c', `ulimit -Sn ${fdLimit} && ulimit -Hn ${fdLimit} && exec ${quoted}`];
  const proc = spawn(command, argv, {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), PUBLIC_BASE_URL: url, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout?.on('data', (d) => (out += d));
  proc.stderr?.on('data', (d) => (out += d));
  const exited = new Promise<number | string | null>((resolve) => proc.on('exit', (code, sig) => resolve(code ?? sig)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited early: ${out}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      proc.kill('SIGKILL'); // or it would outlive the test run
      throw new Error(`server did not start: ${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    proc,
    output: () => out,
    stop: (signal = 'SIGTERM') => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
  };
}
