// One server process per SQLite file. Each process caches short links in memory and learns of
// changes only from its own API, so a second server on the same file kept redirecting a code
// deleted through the first (still 302 thirty seconds later). The CLI may still open the file
// beside a running server: it serves no short links.
//
// The claim is a lock the kernel holds for this process: an exclusive SQLite transaction on a
// small file beside the database, open until the process ends. It goes with the process
// however it ends (no stale claim after kill -9), and a server in another container, whose pid
// means nothing here, meets it too (a pid file was taken over from another PID namespace).
import fs from 'node:fs';
import path from 'node:path';
import { SQLite } from './sqlite-driver.ts';

export class SqliteInUseError extends Error {}

/** The lock connections of this process: open, so held, until it ends. */
const held: InstanceType<typeof SQLite>[] = [];

/** Claims `<file>.server-lock` for this process, or throws SqliteInUseError when another server holds it. */
export function claimSqliteFile(file: string): void {
  const lockFile = `${file}.server-lock`;
  const holderFile = `${file}.server-pid`;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const lock = new SQLite(lockFile, { timeout: 0 });
  try {
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.exec('begin exclusive');
  } catch (err) {
    lock.close();
    if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err;
    const holder = fs.readFileSync(holderFile, { encoding: 'utf8', flag: 'a+' }).trim();
    throw new SqliteInUseError(
      `another qrtrack server${holder ? ` (pid ${holder})` : ''} serves ${file}; SQLite is served by one process (run several on PostgreSQL)`,
    );
  }
  // Kept open, and so locked, for the life of the process; the pid only names the holder.
  held.push(lock);
  fs.writeFileSync(holderFile, `${process.pid}\n`);
}
