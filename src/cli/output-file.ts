// Writes a command's output (`export --out FILE`) so that a failure is one line naming the
// file and why, and never leaves a half-written FILE: the chunks go to a hidden file beside
// it, renamed over FILE only once complete.
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { BulkUsageError } from './bulk-usage.ts';

const REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such folder',
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'it is a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the disk',
  EDQUOT: 'disk quota exceeded',
};

export async function writeOutputFile(command: string, file: string, chunks: AsyncIterable<string | Uint8Array>): Promise<void> {
  // A folder, device or pipe (--out /dev/stdout) cannot be replaced by a rename: write to it as it is.
  const existing = fs.statSync(file, { throwIfNoEntry: false });
  const direct = existing !== undefined && !existing.isFile();
  const partial = direct ? file : path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.partial`);
  // The export's own failures (a database error, a bad design) keep their message.
  let exportFailed = false;
  const tracked = (async function* () {
    try {
      yield* chunks;
    } catch (err) {
      exportFailed = true;
      throw err;
    }
  })();
  try {
    await pipeline(tracked, await openForWriting(partial));
    if (!direct) await fs.promises.rename(partial, file);
  } catch (err) {
    if (!direct) await fs.promises.rm(partial, { force: true });
    throw exportFailed ? err : new BulkUsageError(`${command}: cannot write ${file}: ${reason(err)}`);
  }
}

/** Opens before the first chunk is made, so a path that cannot be written costs no work. */
function openForWriting(file: string): Promise<fs.WriteStream> {
  const stream = fs.createWriteStream(file);
  return new Promise((resolve, reject) => {
    stream.once('ready', () => resolve(stream));
    stream.once('error', reject);
  });
}

function reason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  return (code !== undefined && REASONS[code]) || (err instanceof Error ? err.message : String(err));
}
