// CPU time of a process's threads, read from /proc: its main thread apart from the others (worker
// threads, libuv's pool, V8's helpers). A bench on two cores reads where its load went: the thread
// that answers short links, or the rest. Null where /proc is not readable.
import { readFile, readdir } from 'node:fs/promises';
import { TICKS, statFields } from './postgres-cpu.ts';

export interface ThreadCpu {
  /** Seconds of user and system time of the main thread. */
  main: number;
  /** Of every other thread, together. */
  others: number;
}

export async function threadCpuSeconds(pid: number): Promise<ThreadCpu | null> {
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => null);
  if (tasks === null) return null;
  const out: ThreadCpu = { main: 0, others: 0 };
  for (const tid of tasks) {
    const stat = await readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8').catch(() => null);
    if (stat === null) continue;
    const seconds =
      statFields(stat)
        .slice(11, 13)
        .reduce((sum, f) => sum + Number(f), 0) / TICKS;
    if (tid === String(pid)) out.main += seconds;
    else out.others += seconds;
  }
  return out;
}

/** `after` − `before`; null when either is. */
export function cpuSpent(before: ThreadCpu | null, after: ThreadCpu | null): ThreadCpu | null {
  return before && after ? { main: after.main - before.main, others: after.others - before.others } : null;
}
