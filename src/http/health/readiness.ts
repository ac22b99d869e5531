// GET /readyz: whether this process can do its work, for a load balancer or an operator's
// monitor. /healthz only says the process answers; a full disk or a lost database left it
// green while scans were being lost.
import fs from 'node:fs';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { ShortLinkHealth } from '../short-links/failure-watch.ts';

/** A failure this recent still counts: scans fail in bursts, and a monitor polls every few seconds. */
const RECENT_MS = 60_000;
/** A database that takes longer than this to answer `select 1` is as good as down. */
const PING_TIMEOUT_MS = 2_000;

/** The SQLite file as opened: deleted or replaced under a running server, writes go nowhere. */
export interface OpenedFile {
  path: string;
  ino: number;
}

export function openedFileOf(db: Db): OpenedFile | null {
  if (!db.sqlite || db.sqlite.memory) return null;
  return { path: db.sqlite.name, ino: fs.statSync(db.sqlite.name).ino };
}

/**
 * What keeps this process from its work, in words safe to show anyone: /readyz needs no key,
 * so the database's own error (its address, its user) and the file's path go to `onError`,
 * for the log, and not into the answer.
 */
export async function readinessProblems(
  db: Db,
  health: ShortLinkHealth,
  file: OpenedFile | null,
  onError: (err: unknown) => void,
): Promise<string[]> {
  const problems: string[] = [];
  if (file) {
    const now = fs.statSync(file.path, { throwIfNoEntry: false });
    if (now?.ino !== file.ino) {
      problems.push('database: its file was deleted or replaced while the server ran; what it writes now is lost at the next start');
      onError(new Error(`${file.path} was deleted or replaced while the server ran`));
    }
  }
  let timer: NodeJS.Timeout | undefined;
  const ping = sql`select 1`.execute(db.kysely).then(
    () => null,
    (err: unknown) => {
      onError(err);
      return 'database: cannot be read';
    },
  );
  const late = new Promise<string>(
    (resolve) => (timer = setTimeout(() => resolve(`database: did not answer within ${PING_TIMEOUT_MS} ms`), PING_TIMEOUT_MS)),
  );
  const pinged = await Promise.race([ping, late]);
  clearTimeout(timer);
  if (pinged !== null) problems.push(pinged);
  if (health.lookups.failedWithin(RECENT_MS)) problems.push('shortLinks: some could not be looked up in the last minute');
  if (health.scans.failedWithin(RECENT_MS))
    problems.push('scans: some were answered but not stored in the last minute (is the disk full?)');
  return problems;
}

/**
 * readinessProblems at most once a second, shared by the requests that ask meanwhile: the
 * route needs no key and is not rate limited, and each answer queries the database.
 */
export function sharedReadiness(check: () => Promise<string[]>, everyMs = 1_000): () => Promise<string[]> {
  let last: { at: number; result: Promise<string[]> } | null = null;
  return () => {
    const now = Date.now();
    if (last === null || now - last.at >= everyMs) last = { at: now, result: check() };
    return last.result;
  };
}
