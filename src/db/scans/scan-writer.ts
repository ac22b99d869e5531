// The scan writer contract shared by both dialects, and the factory that picks one.
import type { Db } from '../database.ts';
import type { ScanEvent } from '../../domain/scans/scan-batch.ts';
import type { LoggedScan } from './logged-scan.ts';
import { PostgresScanWriter } from './postgres-scan-writer.ts';
import { createAggregator } from './rollup-aggregator.ts';
import { makeScanMonths } from './scan-partitions.ts';
import { SqliteScanWriter } from './sqlite-scan-writer.ts';

export interface ScanWriter {
  /** Resolves once the scan is durably appended to the log (the roll-ups follow: rollup-aggregator.ts). */
  record(scan: ScanEvent): Promise<void>;
  /** Commits anything still queued (shutdown). */
  drain(): Promise<void>;
}

/** Told of each batch once it committed or failed (the metrics); called once a batch, never per scan. */
export interface ScanWriteObserver {
  /** `logged`: each scan as the log holds it, its id included, where the writer has them (SQLite). */
  written(scans: readonly ScanEvent[], seconds: number, logged?: readonly LoggedScan[]): void;
  failed(scans: readonly ScanEvent[], seconds: number): void;
}

export function createScanWriter(db: Db, observer: ScanWriteObserver | null = null): ScanWriter {
  if (db.sqlite) return new SqliteScanWriter(db.sqlite, observer, db.commitGate);
  if (db.pool) return new PostgresScanWriter(db.pool, observer);
  throw new Error('database has neither a SQLite handle nor a PostgreSQL pool');
}

/**
 * A writer whose drain() also applies the log to the roll-ups: for tools that seed scans and then
 * read the roll-ups directly (benches, the CLI, tests), without a server's aggregator running.
 * On PostgreSQL it then gives seeded past months their partitions, as a server would at start.
 */
export function createSeedingWriter(db: Db): ScanWriter {
  const writer = createScanWriter(db);
  const rollups = createAggregator(db);
  return {
    record: (scan) => writer.record(scan),
    async drain() {
      await writer.drain();
      await rollups.catchUp(600_000);
      await makeScanMonths(db);
    },
  };
}
