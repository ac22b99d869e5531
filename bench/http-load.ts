// Load measurement on loopback. The load generator runs in its own process and so does the
// server under test: on two cores, a load generator sharing the server's event loop
// would cap both and flatter neither. The bare redirect server is the ceiling: the
// fastest a Node process on this machine can answer a 302 with no work at all.
//
// The generator is wrk (Debian's package) where it is installed, else autocannon (npm). wrk,
// in C, spends about half the CPU per request that autocannon does (here: 78.7k req/s on
// 0.5 core against autocannon's 75k on a whole one), and on two cores that CPU is taken
// from the server's other threads: the webhooks' sender, the read workers, the checkpointer.
// BENCH_LOAD=autocannon (or wrk) picks one; every report names the one it used.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { formatTable } from './format.ts';

export interface LoadResult {
  /** Requests answered per second over the measured window. */
  rps: number;
  /** Latency percentiles in milliseconds (autocannon records whole milliseconds, wrk microseconds). */
  p50: number;
  p99: number;
  /** Connection errors, timeouts included. */
  errors: number;
  /** Answers that were neither 2xx nor 3xx. */
  non2xx3xx: number;
}

export interface MeasureOptions {
  connections: number;
  durationSeconds: number;
  method?: 'GET' | 'HEAD';
  /** Load applied before measuring, so the JIT and caches are warm; default 1 s, 0 for none. */
  warmupSeconds?: number;
  headers?: Readonly<Record<string, string>>;
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** The ceiling: a bare `http` server answering every request with a 302 and nothing else. */
export async function startBareRedirectServer(): Promise<RunningServer> {
  const server = createServer((_req, res) => {
    res.writeHead(302, { Location: 'https://example.com/' });
    res.end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** The shape of autocannon's `--json` report that we read. */
interface AutocannonReport {
  duration: number;
  errors: number;
  '1xx': number;
  '4xx': number;
  '5xx': number;
  latency: { p50: number; p99: number };
  requests: { total: number };
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Each figure's median over rounds of the same load (the rounds' middle value, not one round's). */
export function medianResult(results: readonly LoadResult[]): LoadResult {
  const pick = (f: (r: LoadResult) => number) => {
    const v = results.map(f).sort((a, b) => a - b);
    return v[Math.floor(v.length / 2)] ?? 0;
  };
  return {
    rps: pick((r) => r.rps),
    p50: pick((r) => r.p50),
    p99: pick((r) => r.p99),
    errors: pick((r) => r.errors),
    non2xx3xx: pick((r) => r.non2xx3xx),
  };
}

export type LoadGenerator = 'wrk' | 'autocannon';

let chosen: LoadGenerator | null = null;

/** The generator `measure` drives single-URL loads with: BENCH_LOAD, else wrk where installed. */
export function loadGenerator(): LoadGenerator {
  if (chosen !== null) return chosen;
  const asked = process.env.BENCH_LOAD;
  if (asked !== undefined && asked !== '' && asked !== 'wrk' && asked !== 'autocannon')
    throw new Error(`BENCH_LOAD: wrk or autocannon, got ${asked}`);
  const installed = spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
  if (asked === 'wrk' && !installed) throw new Error('BENCH_LOAD=wrk: wrk is not installed (apt-get install -y wrk)');
  chosen = asked === 'autocannon' || !installed ? 'autocannon' : 'wrk';
  return chosen;
}

/** Drives `url` with the load generator in a child process; never runs longer than warm-up + duration + 30 s. */
export async function measure(url: string, opts: MeasureOptions): Promise<LoadResult> {
  const target = new URL(url);
  if (!LOOPBACK_HOSTS.has(target.hostname)) throw new Error(`measure: loopback only, got ${target.hostname}`);
  const warmup = opts.warmupSeconds ?? 1;
  const limitMs = (warmup + opts.durationSeconds + 30) * 1000;
  if (loadGenerator() === 'wrk') {
    if (warmup > 0) await runToCompletion('wrk', wrkArgs(url, { ...opts, durationSeconds: warmup }), limitMs);
    return parseWrk(await runToCompletion('wrk', wrkArgs(url, opts), limitMs));
  }
  const stdout = await runToCompletion(process.execPath, [autocannonScript(), ...autocannonArgs(url, opts, warmup)], limitMs);
  return toLoadResult(lastReport(stdout));
}

/**
 * Drives `/r/{code}` on `baseUrl` with each request's code drawn at random from `codesFile`
 * (bench/spread-load.ts in a child process), so the scans spread over a long tail of codes.
 */
export async function measureSpread(baseUrl: string, codesFile: string, opts: MeasureOptions): Promise<LoadResult> {
  const target = new URL(baseUrl);
  if (!LOOPBACK_HOSTS.has(target.hostname)) throw new Error(`measureSpread: loopback only, got ${target.hostname}`);
  const script = new URL('./spread-load.ts', import.meta.url).pathname;
  const agent = opts.headers?.['user-agent'] ?? 'bench';
  const stdout = await runToCompletion(
    process.execPath,
    ['--import', 'tsx', script, baseUrl, codesFile, String(opts.connections), String(opts.durationSeconds), agent],
    (opts.durationSeconds + 40) * 1000,
  );
  return toLoadResult(lastReport(stdout));
}

/** With a warm-up autocannon prints one JSON line per phase; the measured one is last. */
function lastReport(stdout: string): AutocannonReport {
  const last = stdout.trim().split('\n').at(-1);
  if (!last) throw new Error('autocannon printed no report');
  return JSON.parse(last) as AutocannonReport;
}

function autocannonArgs(url: string, opts: MeasureOptions, warmup: number): string[] {
  const args = ['--json', '--no-progress', '-c', String(opts.connections), '-d', String(opts.durationSeconds)];
  args.push('-m', opts.method ?? 'GET');
  for (const [name, value] of Object.entries(opts.headers ?? {})) args.push('-H', `${name}=${value}`);
  if (warmup > 0) args.push('--warmup', '[', '-c', String(opts.connections), '-d', String(warmup), ']');
  return [...args, url];
}

/** One wrk thread: it keeps 50 connections busy on loopback at well over the server's rate. */
function wrkArgs(url: string, opts: MeasureOptions): string[] {
  if ((opts.method ?? 'GET') !== 'GET') throw new Error('measure: wrk is driven with GET only here');
  const args = ['-t1', `-c${opts.connections}`, `-d${opts.durationSeconds}s`, '--latency', '--timeout', '10s'];
  for (const [name, value] of Object.entries(opts.headers ?? {})) args.push('-H', `${name}: ${value}`);
  return [...args, url];
}

/** wrk's text report: requests a second, its latency distribution, errors and non-2xx/3xx answers. */
function parseWrk(out: string): LoadResult {
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
  if (!rps) throw new Error(`wrk printed no rate: ${out.slice(-500)}`);
  const ms = (pct: string) => {
    const m = new RegExp(`^\\s+${pct}%\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(out);
    if (!m) throw new Error(`wrk printed no ${pct}th percentile: ${out.slice(-500)}`);
    const scale = { us: 0.001, ms: 1, s: 1000 }[m[2] as 'us' | 'ms' | 's'];
    return Number((Number(m[1]) * scale).toFixed(2));
  };
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const non = /Non-2xx or 3xx responses: (\d+)/.exec(out);
  return {
    rps: Number(rps[1]),
    p50: ms('50'),
    p99: ms('99'),
    errors: socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
    non2xx3xx: non ? Number(non[1]) : 0,
  };
}

function toLoadResult(r: AutocannonReport): LoadResult {
  return {
    rps: r.duration > 0 ? r.requests.total / r.duration : 0,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors,
    non2xx3xx: r['1xx'] + r['4xx'] + r['5xx'],
  };
}

function autocannonScript(): string {
  return createRequire(import.meta.url).resolve('autocannon/autocannon.js');
}

/** Runs a command to its end and returns its stdout; rejects on a non-zero exit or after `limitMs`. */
function runToCompletion(command: string, args: readonly string[], limitMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err = new OutputTail();
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.add(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new Error(`${path.basename(command)} ${args[0] ?? ''} failed (${signal ?? `exit ${code}`}): ${err.text()}`));
    });
  });
}

/** The last few KiB of a child's output, for error messages without unbounded buffering. */
class OutputTail {
  private buf = '';
  add(chunk: Buffer): void {
    this.buf = (this.buf + chunk.toString('utf8')).slice(-4096);
  }
  text(): string {
    return this.buf.trim();
  }
}

export interface SpawnedServer {
  pid: number;
  close(): Promise<void>;
}

/**
 * Starts a server process (`command[0]` with the rest as arguments; `env` is added to
 * this process's environment) and resolves once `readyUrl` answers with any status.
 * Rejects if the process exits first or is not ready within `readyTimeoutMs`.
 */
export async function spawnServer(
  command: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  readyUrl: string,
  readyTimeoutMs = 30_000,
): Promise<SpawnedServer> {
  const [file, ...args] = command;
  if (!file) throw new Error('spawnServer: empty command');
  const child = spawn(file, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = new OutputTail();
  child.stdout?.on('data', (chunk: Buffer) => output.add(chunk));
  child.stderr?.on('data', (chunk: Buffer) => output.add(chunk));
  try {
    await waitUntilAnswering(child, readyUrl, readyTimeoutMs, output);
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  return { pid: child.pid ?? -1, close: () => stopChild(child) };
}

async function waitUntilAnswering(child: ChildProcess, url: string, timeoutMs: number, output: OutputTail): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  child.once('exit', () => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`server exited before answering ${url}: ${output.text()}`);
    if (await answers(url)) return;
    await sleep(100);
  }
  throw new Error(`server did not answer ${url} within ${timeoutMs} ms: ${output.text()}`);
}

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(1000) });
    await res.body?.cancel();
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM, so the server drains as in production; SIGKILL if it has not exited after 10 s. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Self-check: `npx tsx bench/http-load.ts [connections] [seconds]` measures the bare ceiling. */
async function selfCheck(): Promise<void> {
  const connections = Number(process.argv[2] ?? 50);
  const durationSeconds = Number(process.argv[3] ?? 5);
  const bare = await startBareRedirectServer();
  try {
    const r = await measure(bare.url, { connections, durationSeconds });
    console.log(
      formatTable([
        {
          target: 'bare node:http 302',
          connections,
          'req/s': Math.round(r.rps),
          'p50 ms': r.p50,
          'p99 ms': r.p99,
          errors: r.errors,
          'non-2xx/3xx': r.non2xx3xx,
        },
      ]),
    );
  } finally {
    await bare.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  selfCheck().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
