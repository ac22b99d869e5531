// The scan writer contract shared by both dialects.
import type { ScanEvent } from '../domain/scans/scan-batch.ts';

export interface ScanWriter {
  /** Resolves once the scan and its counters are durably committed. */
  record(scan: ScanEvent): Promise<void>;
  /** Commits anything still queued (shutdown). */
  drain(): Promise<void>;
}
