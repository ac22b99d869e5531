// PostgreSQL's CPU time, read from /proc: the user and system time of every process named
// `postgres` on this machine, and of their exited children (the server and its backends, the aggregator's statements included).
// Null where /proc is not readable. Other clients of the same server count too: a figure per scan
// is only as clean as the machine is quiet.
import { readFile, readdir } from 'node:fs/promises';

/** Clock ticks per second of /proc's times (USER_HZ; 100 on Linux). */
const TICKS = 100;

export async function postgresCpuSeconds(): Promise<number | null> {
  const pids = await readdir('/proc').catch(() => null);
  if (pids === null) return null;
  let ticks = 0;
  let seen = false;
  for (const pid of pids) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
    if (stat === null) continue;
    // comm is in parentheses and may hold spaces; the fields after it are space-separated.
    const close = stat.lastIndexOf(')');
    if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
    const fields = stat.slice(close + 2).split(' ');
    // utime, stime, cutime and cstime are fields 14 to 17 of the line (12 to 15 after comm): the
    // postmaster's children's times hold the backends that exited (a bench's own short connections).
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    seen = true;
  }
  return seen ? ticks / TICKS : null;
}
