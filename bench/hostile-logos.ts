// Measures what each hostile logo of test/support/hostile-logos.ts costs: parse (validation)
// and a 2500 px PNG preview, each logo in its own child process under a watchdog that kills
// it past a time or memory ceiling (the "before" figures of issue 11 need that).
// Usage: node --import tsx bench/hostile-logos.ts [name-substring ...]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defusedLogos, refusedLogos } from '../test/support/hostile-logos.ts';

const LIMIT_MS = Number(process.env.HOSTILE_LIMIT_MS ?? 30_000);
const LIMIT_RSS = Number(process.env.HOSTILE_LIMIT_GIB ?? 6) * 2 ** 30;

if (process.env.HOSTILE_CHILD) {
  const { DEFAULT_DESIGN } = await import('../src/domain/design/design.ts');
  const { parseLogoDataUrl } = await import('../src/domain/design/logo.ts');
  const { renderPng } = await import('../src/render/index.ts');
  const logos = { ...refusedLogos(), ...defusedLogos() };
  const url = logos[process.env.HOSTILE_CHILD]!;
  const t0 = performance.now();
  let outcome = 'accepted';
  try {
    const logo = parseLogoDataUrl('customLogoUrl', url);
    const t1 = performance.now();
    renderPng(
      'https://qr.test/r/abc',
      { ...DEFAULT_DESIGN, errorCorrectionLevel: 'H', logoSize: 0.5, customLogoUrl: logo.dataUrl },
      { size: 2500 },
    );
    outcome = `accepted (parse ${(t1 - t0).toFixed(0)} ms), rendered`;
  } catch (err) {
    outcome = `refused: ${(err as Error).message.slice(0, 90)}`;
  }
  console.log(JSON.stringify({ ms: performance.now() - t0, outcome }));
  process.exit(0);
}

function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

async function measure(name: string): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    env: { ...process.env, HOSTILE_CHILD: name },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const start = performance.now();
  let peak = 0;
  let killed = '';
  const timer = setInterval(() => {
    peak = Math.max(peak, rssOf(child.pid!));
    const elapsed = performance.now() - start;
    if (!killed && (elapsed > LIMIT_MS || peak > LIMIT_RSS)) {
      killed = elapsed > LIMIT_MS ? `killed after ${(elapsed / 1000).toFixed(0)} s` : `killed at ${(peak / 2 ** 30).toFixed(1)} GiB`;
      child.kill('SIGKILL');
    }
  }, 50);
  const exit = await new Promise<string>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? `exit code ${code}`)));
  clearInterval(timer);
  const mib = (peak / 2 ** 20).toFixed(0);
  if (killed) return `| ${name} | ${killed} | ≥ ${mib} MiB | not finished |`;
  const last = out.trim().split('\n').pop();
  if (!last) return `| ${name} | ${((performance.now() - start) / 1000).toFixed(1)} s | ${mib} MiB | crashed (${exit}) |`;
  const r = JSON.parse(last) as { ms: number; outcome: string };
  return `| ${name} | ${r.ms.toFixed(0)} ms | ${mib} MiB | ${r.outcome} |`;
}

const filters = process.argv.slice(2);
const names = Object.keys({ ...refusedLogos(), ...defusedLogos() }).filter((n) => !filters.length || filters.some((f) => n.includes(f)));
console.log('| logo | time (parse + 2500 px PNG) | peak RSS of the process | outcome |\n|---|---|---|---|');
for (const name of names) console.log(await measure(name));
