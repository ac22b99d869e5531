// PostgreSQL's CPU time, read from /proc: the user and system time of every process named
// `postgres` on this machine, and of their exited children (the server and its backends, the aggregator's statements included).
// Null where /proc is not readable. Other clients of the same server count too: a figure per scan
// is only as clean as the machine is quiet.
import { readFile, readdir } from 'node:fs/promises';

/** Clock ticks per second of /proc's times (USER_HZ; 100 on Linux). */
export const TICKS = 100;

/** A /proc stat line's fields after its comm (in parentheses, and it may hold spaces): utime is [11], stime [12]. */
export function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

export async function postgresCpuSeconds(): Promise<number | null> {
  const pids = await readdir('/proc').catch(() => null);
  if (pids === null) return null;
  let ticks = 0;
  let seen = false;
  for (const pid of pids) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
    if (stat === null) continue;
    if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') continue;
    const fields = statFields(stat);
    // utime, stime, cutime and cstime are fields 14 to 17 of the line (12 to 15 after comm): the
    // postmaster's children's times hold the backends that exited (a bench's own short connections).
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    seen = true;
  }
  return seen ? ticks / TICKS : null;
}
