// Scan recording on PostgreSQL: group commit as on SQLite, and a batch is ONE statement (one
// round trip) that appends the raw scans to the log. Nothing else is written here: the
// aggregator (postgres-rollups.ts) applies the log to the roll-ups.
import type pg from 'pg';
import type { ScanEvent } from '../../domain/scans/scan-batch.ts';
import { booleanArray, textArray } from '../postgres/pg-array-literal.ts';
import { loggedScanOf, ruleIdColumn } from './logged-scan.ts';
import type { ScanWriteObserver, ScanWriter } from './scan-writer.ts';

interface Pending {
  scan: ScanEvent;
  resolve: () => void;
  reject: (err: unknown) => void;
}

const MAX_BATCH = 512;
// One batch at a time: while it commits the next one grows, so a batch's fixed cost is paid less
// often; two in flight measured worse (docs/scaling.md).
const MAX_IN_FLIGHT = 1;
const RETRIES = 3;

export class PostgresScanWriter implements ScanWriter {
  private queue: Pending[] = [];
  private inFlight = 0;
  private scheduled = false;
  private readonly idle: (() => void)[] = [];

  constructor(
    private readonly pool: pg.Pool,
    private readonly observer: ScanWriteObserver | null = null,
  ) {}

  record(scan: ScanEvent): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ scan, resolve, reject });
      // Sent once this turn of the event loop is over, so the scans of every request read
      // in the same turn share one batch instead of the first going out alone.
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  /** While a batch is in flight, new scans queue up and go together in the next one. */
  private pump(): void {
    while (this.queue.length > 0 && this.inFlight < MAX_IN_FLIGHT) {
      const batch = this.queue.splice(0, MAX_BATCH);
      const scans = batch.map((p) => p.scan);
      const started = this.observer === null ? 0 : performance.now();
      this.inFlight++;
      this.write(scans)
        .then(
          (ids) => {
            // The aggregator is handed the batch as the log holds it, each scan with its id.
            const logged =
              this.observer !== null && ids.length === scans.length ? scans.map((s, i) => loggedScanOf(s, ids[i] as number)) : undefined;
            this.observer?.written(scans, (performance.now() - started) / 1000, logged);
            for (const p of batch) p.resolve();
          },
          (err: unknown) => {
            this.observer?.failed(scans, (performance.now() - started) / 1000);
            for (const p of batch) p.reject(err);
          },
        )
        .finally(() => {
          this.inFlight--;
          this.pump();
          if (this.inFlight === 0 && this.queue.length === 0) for (const f of this.idle.splice(0)) f();
        });
    }
  }

  /** Appends the batch; answers each scan's id in the log, in the batch's order. */
  private async write(scans: ScanEvent[]): Promise<number[]> {
    const values = batchParameters(scans);
    for (let attempt = 1; ; attempt++) {
      try {
        // A named statement is planned once per connection. Its rows are inserted, and their ids
        // drawn from the sequence, in the order unnest gives them: the batch's.
        const res = await this.pool.query<{ id: string }>({ name: 'qrtrack_append_scans', text: APPEND_BATCH, values });
        return res.rows.map((r) => Number(r.id));
      } catch (err) {
        const code = (err as { code?: string }).code;
        if ((code !== '40P01' && code !== '40001') || attempt >= RETRIES) throw err;
      }
    }
  }

  async drain(): Promise<void> {
    if (this.inFlight === 0 && this.queue.length === 0) return;
    await new Promise<void>((resolve) => this.idle.push(resolve));
  }
}

/** The statement's parameters: one array literal per column of the log. */
export function batchParameters(scans: readonly ScanEvent[]): string[] {
  const text = (f: (s: ScanEvent) => string | null) => textArray(scans.map(f));
  return [
    text((s) => s.itemId),
    text((s) => s.scannedAt),
    booleanArray(scans.map((s) => s.isBot)),
    text((s) => s.device),
    text((s) => s.os),
    text((s) => s.browser),
    text((s) => s.country),
    text((s) => s.referrer),
    text((s) => s.visitorHash),
    text((s) => s.outcome ?? 'redirect'),
    text((s) => ruleIdColumn(s.ruleId)),
    text((s) => (s.variant === null || s.variant === undefined ? null : String(s.variant))),
    text((s) => s.destination ?? null),
  ];
}

const APPEND_BATCH = `
    insert into scans (item_id, scanned_at, is_bot, device, os, browser, country, referrer, visitor_hash, outcome, rule_id, variant,
      destination)
    select * from unnest($1::text[], $2::timestamptz[], $3::boolean[], $4::text[], $5::text[], $6::text[], $7::text[],
      $8::text[], $9::text[], $10::text[], $11::text[], $12::int[], $13::text[])
    returning id`;
