// GET /readyz: whether this process can do its work, for a load balancer or an operator's
// monitor. /healthz only says the process answers; a full disk or a lost database left it
// green while scans were being lost.
import fs from 'node:fs';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { ShortLinkHealth } from './failure-watch.ts';

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

export async function readinessProblems(db: Db, health: ShortLinkHealth, file: OpenedFile | null = null): Promise<string[]> {
  const problems: string[] = [];
  if (file) {
    const now = fs.statSync(file.path, { throwIfNoEntry: false });
    if (now?.ino !== file.ino) problems.push(`database: ${file.path} was deleted or replaced while the server ran; what it writes now is lost at the next start`);
  }
  let timer: NodeJS.Timeout | undefined;
  const ping = sql`select 1`.execute(db.kysely).then(
    () => null,
    (err: unknown) => `database: cannot be read (${err instanceof Error ? err.message : String(err)})`,
  );
  const late = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`database: did not answer within ${PING_TIMEOUT_MS} ms`), PING_TIMEOUT_MS)));
  const pinged = await Promise.race([ping, late]);
  clearTimeout(timer);
  if (pinged !== null) problems.push(pinged);
  if (health.lookups.failedWithin(RECENT_MS)) problems.push('shortLinks: some could not be looked up in the last minute');
  if (health.scans.failedWithin(RECENT_MS)) problems.push('scans: some were answered but not stored in the last minute (is the disk full?)');
  return problems;
}
