// Scan recording on SQLite with group commit: scans arriving in the same turn of the
// event loop are appended to the log in one transaction, and each caller's promise resolves
// only after that transaction has committed. So a redirect is answered only once its scan
// is durable (WAL, synchronous=NORMAL: survives kill -9), while a busy server pays one
// commit per batch instead of one per scan. The roll-ups are the aggregator's (rollup-aggregator.ts).
import type SQLite from 'better-sqlite3';
import type { ScanEvent } from '../../domain/scans/scan-batch.ts';
import { type LoggedScan, loggedScanOf, ruleIdColumn } from './logged-scan.ts';
import type { CommitGate } from '../database.ts';
import type { ScanWriteObserver, ScanWriter } from './scan-writer.ts';

interface Pending {
  scan: ScanEvent;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** Bounds one transaction, so a burst cannot hold the writer for long. */
const MAX_BATCH = 512;
/**
 * Rows per insert statement. One statement per row spent ~1.2 µs a scan on the statement itself
 * (the call into SQLite, and AUTOINCREMENT's read and write of sqlite_sequence), a third of the
 * insert; statements of up to 64 rows are prepared once per size, when first needed.
 */
const ROWS_PER_INSERT = 64;
const COLUMNS = 13;

export class SqliteScanWriter implements ScanWriter {
  private queue: Pending[] = [];
  private scheduled = false;
  /** Answers each scan as the log now holds it, its id included, in order. */
  private readonly writeBatch: (scans: ScanEvent[]) => LoggedScan[];
  private readonly inserts: SQLite.Statement[] = [];

  private held = false;
  private readonly resume = () => {
    this.held = false;
    this.flush();
  };

  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly observer: ScanWriteObserver | null = null,
    private readonly gate?: CommitGate,
  ) {
    const values: unknown[] = [];
    this.writeBatch = sqlite.transaction((scans: ScanEvent[]) => {
      const logged: LoggedScan[] = [];
      for (let from = 0; from < scans.length; from += ROWS_PER_INSERT) {
        const n = Math.min(ROWS_PER_INSERT, scans.length - from);
        values.length = 0;
        for (let i = from; i < from + n; i++) pushColumns(values, scans[i] as ScanEvent);
        const written = this.insertOf(n).run(values);
        // One statement's rows take consecutive ids, the last one reported (AUTOINCREMENT: each
        // new id is one past the highest ever, and this transaction is the only writer).
        if (written.changes !== n) throw new Error(`scan log: ${n} rows inserted, ${written.changes} reported`);
        const first = Number(written.lastInsertRowid) - n + 1;
        for (let i = 0; i < n; i++) logged.push(loggedScanOf(scans[from + i] as ScanEvent, first + i));
      }
      return logged;
    });
  }

  private insertOf(rows: number): SQLite.Statement {
    let statement = this.inserts[rows];
    if (statement === undefined) {
      const row = `(${Array.from({ length: COLUMNS }, () => '?').join(', ')})`;
      statement = this.sqlite.prepare(
        `insert into scans (item_id, scanned_at, is_bot, device, os, browser, country, referrer, visitor_hash, outcome, rule_id,
           variant, destination)
         values ${Array.from({ length: rows }, () => row).join(', ')}`,
      );
      this.inserts[rows] = statement;
    }
    return statement;
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

  private flush(force = false): void {
    this.scheduled = false;
    if (this.held && !force) return;
    if (!force && this.queue.length > 0 && this.gate?.holdCommits(this.resume) === true) {
      // The WAL starts over first (wal-pacer.ts); the queue grows meanwhile and goes in one batch.
      this.held = true;
      return;
    }
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
    this.flush(true);
  }
}

/** The log's 13 columns of `s`, appended to `values` (read back by toLoggedScan, logged-scan.ts). */
function pushColumns(values: unknown[], s: ScanEvent): void {
  values.push(
    s.itemId,
    s.scannedAt,
    s.isBot ? 1 : 0,
    s.device,
    s.os,
    s.browser,
    s.country,
    s.referrer,
    s.visitorHash,
    s.outcome ?? 'redirect',
    ruleIdColumn(s.ruleId),
    s.variant ?? null,
    s.destination ?? null,
  );
}
