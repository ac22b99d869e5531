// The body of a read worker thread (run by piscina; see read-pool.ts): its own read-only
// connection to the server's SQLite file, opened when the thread starts and kept for its life,
// and the named read operations over it. Nothing here holds the thread that answers short links.
import { workerData } from 'piscina';
import { openSqliteReader } from '../db/sqlite/sqlite-reader.ts';
import { DomainError } from '../domain/errors.ts';
import { type ReadJob, type ReadOutcome, runReadJob } from './read-operations.ts';

/** What the pool gives every worker. */
export interface ReadWorkerData {
  file: string;
}

const db = openSqliteReader((workerData as ReadWorkerData).file);

export default async function read(job: ReadJob): Promise<ReadOutcome> {
  try {
    return { ok: true, answer: await runReadJob(db, job) };
  } catch (err) {
    if (err instanceof DomainError) return { ok: false, status: err.status, message: err.message };
    throw err;
  }
}
