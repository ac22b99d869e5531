// WAL checkpoints off the main thread. A checkpoint copies the WAL into the database
// file and fsyncs it; run by the connection that writes scans, it would stall every
// redirect in flight. A worker thread with its own connection runs PASSIVE
// checkpoints (they never block the writer) every half second instead, and at once when
// the writer asks (drain(), below).
import { Worker } from 'node:worker_threads';
import { sqliteDriverPath } from './sqlite-driver.ts';

const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
const checkpoint = () => { try { return db.pragma('wal_checkpoint(PASSIVE)')[0]; } catch { return undefined; } };
const timer = setInterval(checkpoint, workerData.intervalMs);
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
parentPort.on('message', async (message) => {
  if (message === 'drain') {
    // Until every frame is copied (a scan committed meanwhile adds a few), a few tries at most.
    let done = false;
    for (let i = 0; i < 4 && !done; i++) {
      if (i > 0) await pause(2);
      const r = checkpoint();
      done = r !== undefined && r.busy === 0 && r.log === r.checkpointed;
    }
    parentPort.postMessage({ drained: done });
    return;
  }
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.postMessage('closed');
});
`;

export class SqliteCheckpointer {
  private readonly worker: Worker;
  private draining: Promise<boolean> | null = null;

  constructor(file: string, intervalMs = 500) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver: sqliteDriverPath, intervalMs } });
    this.worker.unref();
  }

  /**
   * Checkpoints now, in the worker, until the WAL is copied whole (true) or a few tries failed
   * (false: a reader holds old frames). The next write transaction then starts the WAL over.
   * Callers asking at once share one drain.
   */
  drain(): Promise<boolean> {
    this.draining ??= new Promise<boolean>((resolve) => {
      const onMessage = (m: unknown) => {
        if (typeof m !== 'object' || m === null || !('drained' in m)) return;
        this.worker.off('message', onMessage);
        this.draining = null;
        resolve(m.drained === true);
      };
      this.worker.on('message', onMessage);
      this.worker.postMessage('drain');
    });
    return this.draining;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 2_000);
      const onMessage = (m: unknown) => {
        if (m !== 'closed') return;
        this.worker.off('message', onMessage);
        clearTimeout(timer);
        resolve();
      };
      this.worker.on('message', onMessage);
      this.worker.once('error', () => resolve());
      this.worker.postMessage('close');
    });
    await this.worker.terminate();
  }
}
