// Waits for the machine to go quiet before a measurement. After a load round the
// databases keep working for seconds (PostgreSQL's autovacuum and checkpoints, SQLite's
// WAL checkpoint), and a round measured meanwhile, most often the bare ceiling that
// comes next, would be slowed by work that is not its own and skew the ratio.
import { readFile } from 'node:fs/promises';

interface CpuTimes {
  idle: number;
  total: number;
}

/** Aggregate CPU times from /proc/stat; null where there is none (not Linux). */
async function cpuTimes(): Promise<CpuTimes | null> {
  const text = await readFile('/proc/stat', 'utf8').catch(() => null);
  const fields = text?.split('\n', 1)[0]?.trim().split(/\s+/).slice(1).map(Number);
  if (!fields || fields.length < 5 || fields.some(Number.isNaN)) return null;
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, ...rest] = fields;
  return { idle: idle + iowait, total: user + nice + system + idle + iowait + rest.reduce((a, b) => a + b, 0) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Resolves once the whole machine was at least `minIdle` idle over a `windowMs` window,
 * or after `limitMs` whatever it is doing; returns the idle share last seen (1 if unknown).
 */
export async function settle(minIdle = 0.85, windowMs = 500, limitMs = 15_000): Promise<number> {
  const deadline = Date.now() + limitMs;
  let idle = 1;
  for (;;) {
    const before = await cpuTimes();
    await sleep(windowMs);
    const after = await cpuTimes();
    if (!before || !after || after.total <= before.total) return 1;
    idle = (after.idle - before.idle) / (after.total - before.total);
    if (idle >= minIdle || Date.now() >= deadline) return idle;
  }
}
