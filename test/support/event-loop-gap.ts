// The longest stretch of the main thread's own CPU time without a turn of the event loop while
// something ran: what a short link arriving then would have waited on an idle machine. CPU time,
// not wall time, so a loaded machine (which delays every turn) does not fail a test; Linux reads
// it per thread, elsewhere wall time stands in. For bounds far above what a fix leaves.
import { readFileSync } from 'node:fs';

const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;

function mainThreadCpuMs(): number {
  try {
    return Number(readFileSync(SCHEDSTAT, 'latin1').split(' ', 1)[0]) / 1e6;
  } catch {
    return performance.now();
  }
}

export async function longestGapDuring<T>(work: () => Promise<T>): Promise<{ result: T; longestGapMs: number }> {
  let longest = 0;
  let last = mainThreadCpuMs();
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    const now = mainThreadCpuMs();
    longest = Math.max(longest, now - last);
    last = now;
    timer = setTimeout(tick, 1);
  };
  timer = setTimeout(tick, 1);
  try {
    const result = await work();
    tick();
    return { result, longestGapMs: longest };
  } finally {
    clearTimeout(timer);
  }
}
