// Scan recording on SQLite with group commit: scans arriving in the same turn of the
// event loop are appended to the log in one transaction, and each caller's promise resolves
// only after that transaction has committed. So a redirect is answered only once its scan
// is durable (WAL, synchronous=NORMAL: survives kill -9), while a busy server pays one
// commit per batch instead of one per scan. The roll-ups are the aggregator's (rollup-aggregator.ts).
import type SQLite from 'better-sqlite3';
import type { ScanEvent } from '../../domain/scans/scan-batch.ts';
import { type LoggedScanRow, loggedRow } from './logged-scan.ts';
import type { ScanWriteObserver, ScanWriter } from './scan-writer.ts';

interface Pending {
  scan: ScanEvent;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** Bounds one transaction, so a burst cannot hold the writer for long. */
const MAX_BATCH = 512;

export class SqliteScanWriter implements ScanWriter {
  private queue: Pending[] = [];
  private scheduled = false;
  /** Answers each scan's row as logged, its id included, in order. */
  private readonly writeBatch: (scans: ScanEvent[]) => LoggedScanRow[];

  constructor(
    sqlite: SQLite.Database,
    private readonly observer: ScanWriteObserver | null = null,
  ) {
    const insertScan = sqlite.prepare(
      `insert into scans (item_id, scanned_at, is_bot, device, os, browser, country, referrer, visitor_hash, outcome, rule_id, variant,
         destination)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.writeBatch = sqlite.transaction((scans: ScanEvent[]) => {
      const rows: LoggedScanRow[] = [];
      for (const s of scans) {
        // The row as the aggregator would read it back (loggedRow), so a batch it is handed from
        // memory is exactly what the log holds.
        const r = loggedRow(s, 0);
        const written = insertScan.run(
          r.item_id,
          r.scanned_at,
          r.is_bot,
          r.device,
          r.os,
          r.browser,
          r.country,
          r.referrer,
          r.visitor_hash,
          r.outcome,
          r.rule_id,
          r.variant,
          r.destination,
        );
        r.id = Number(written.lastInsertRowid);
        rows.push(r);
      }
      return rows;
    });
  }

  record(scan: ScanEvent): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ scan, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      const scans = batch.map((p) => p.scan);
      const started = this.observer === null ? 0 : performance.now();
      try {
        const rows = this.writeBatch(scans);
        this.observer?.written(scans, (performance.now() - started) / 1000, rows);
        for (const p of batch) p.resolve();
      } catch (err) {
        this.observer?.failed(scans, (performance.now() - started) / 1000);
        for (const p of batch) p.reject(err);
      }
    }
  }

  /** Writes whatever is queued; called on shutdown. */
  async drain(): Promise<void> {
    this.flush();
  }
}
