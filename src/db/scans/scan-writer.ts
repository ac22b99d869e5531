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

export function createScanWriter(db: Db): ScanWriter {
  if (db.sqlite) return new SqliteScanWriter(db.sqlite);
  if (db.pool) return new PostgresScanWriter(db.pool);
  throw new Error('database has neither a SQLite handle nor a PostgreSQL pool');
}
