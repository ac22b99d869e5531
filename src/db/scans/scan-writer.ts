// The scan writer contract shared by both dialects, and the factory that picks one.
import type { Db } from '../database.ts';
import type { ScanEvent } from '../../domain/scans/scan-batch.ts';
import { PostgresScanWriter } from './postgres-scan-writer.ts';
import { SqliteScanWriter } from './sqlite-scan-writer.ts';

export interface ScanWriter {
  /** Resolves once the scan and its counters are durably committed. */
  record(scan: ScanEvent): Promise<void>;
  /** Commits anything still queued (shutdown). */
  drain(): Promise<void>;
}

/** Told of each batch once it committed or failed (the metrics); called once a batch, never per scan. */
export interface ScanWriteObserver {
  written(scans: readonly ScanEvent[], seconds: number): void;
  failed(scans: readonly ScanEvent[], seconds: number): void;
}

export function createScanWriter(db: Db, observer: ScanWriteObserver | null = null): ScanWriter {
  if (db.sqlite) return new SqliteScanWriter(db.sqlite, observer);
  if (db.pool) return new PostgresScanWriter(db.pool, observer);
  throw new Error('database has neither a SQLite handle nor a PostgreSQL pool');
}
