// WAL checkpoints off the main thread. A checkpoint copies the WAL into the database
// file and fsyncs it; run by the connection that writes scans, it would stall every
// redirect in flight. A worker thread with its own connection runs PASSIVE
// checkpoints (they never block the writer) every half second instead.
import { Worker } from 'node:worker_threads';
import { sqliteDriverPath } from './sqlite-driver.ts';

const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
const checkpoint = () => { try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {} };
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.postMessage('closed');
});
`;

export class SqliteCheckpointer {
  private readonly worker: Worker;

  constructor(file: string, intervalMs = 500) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver: sqliteDriverPath, intervalMs } });
    this.worker.unref();
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 2_000);
      this.worker.once('message', () => {
        clearTimeout(timer);
        resolve();
      });
      this.worker.once('error', () => resolve());
      this.worker.postMessage('close');
    });
    await this.worker.terminate();
  }
}
