// One server process per SQLite file. Each process caches short links in memory and learns of
// changes only from its own API, so a second server on the same file kept redirecting a code
// deleted through the first (still 302 thirty seconds later). The CLI may still open the file
// beside a running server: it serves no short links.
import fs from 'node:fs';
import path from 'node:path';

export class SqliteInUseError extends Error {}

/**
 * Claims `<file>.server.pid` for this process, or throws SqliteInUseError when a live server
 * holds it. A file left by a process that died is taken over. Returns the release.
 */
export function claimSqliteFile(file: string): () => void {
  const lock = `${file}.server.pid`;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lock, `${process.pid}\n`, { flag: 'wx' });
      const release = () => {
        if (readPid(lock) === process.pid) fs.rmSync(lock, { force: true });
      };
      process.once('exit', release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = readPid(lock);
      if (holder !== null && holder !== process.pid && isNodeProcess(holder)) {
        throw new SqliteInUseError(
          `another qrtrack server (pid ${holder}) serves ${file}; SQLite is served by one process (run several on PostgreSQL), or remove ${lock} if that process is not qrtrack`,
        );
      }
      fs.rmSync(lock, { force: true }); // left by a process that is gone
    }
  }
  throw new SqliteInUseError(`could not claim ${lock}: another server is starting on ${file}`);
}

function readPid(lock: string): number | null {
  try {
    const pid = Number.parseInt(fs.readFileSync(lock, 'utf8'), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Alive, and (where /proc tells) a Node process: a reused pid of anything else is no holder. */
function isNodeProcess(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    return /node/.test(fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1'));
  } catch {
    return true; // no /proc: alive is all we can tell
  }
}
