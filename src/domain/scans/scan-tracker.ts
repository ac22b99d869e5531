// The one place that owns the tracking policy: which requests count as scans (not
// HEAD, not prefetch), which are bots (recorded, but apart), what a scan stores (no
// raw IP: a salted, truncated hash of it), and that a scan is durable before the
// answer goes out. A scan a code refused (scheduled, expired, capped, password) is
// stored with its outcome and counted apart, never in scanCount.
import type { ScanWriter } from '../../db/scans/scan-writer.ts';
import type { CountryLookup } from './country.ts';
import { type Scan, buildScan } from './scan.ts';

export interface ScanRequest {
  method: string;
  headers: Record<string, string | string[] | undefined>;
  ip: string;
}

export interface SaltSource {
  current(now?: number): Promise<string>;
  /** Today's salt when already loaded: the redirect skips an await on all but the first scan of a day. */
  peek(now?: number): string | null;
}

/** What became of a scan (product-decisions §11); only redirect and landing count as scans. */
export type ScanOutcome = 'redirect' | 'landing' | 'scheduled' | 'expired' | 'capped' | 'password_required' | 'password_failed';

export interface ScanAttribution {
  outcome: ScanOutcome;
  /** Set (null: no rule matched) only for a code with rules: its breakdowns by rule and destination. */
  ruleId?: string | null;
  variant?: number | null;
  /** Where the visitor was sent, without the forwarded query. */
  destination?: string | null;
}

export class ScanTracker {
  constructor(
    private readonly writer: ScanWriter,
    private readonly salts: SaltSource,
    private readonly countries: CountryLookup,
  ) {}

  /** The request as a scan: its classification and visitor hash, before anything is decided on it. */
  async classify(req: ScanRequest, now = Date.now()): Promise<Scan> {
    const salt = this.salts.peek(now) ?? (await this.salts.current(now));
    return buildScan({ method: req.method, headers: req.headers, ip: req.ip, now, salt, countryLookup: this.countries });
  }

  /** Records the scan if the policy says so; resolves once it is committed. */
  async record(item: { id: string; accountId: string }, scan: Scan, attribution: ScanAttribution): Promise<void> {
    if (!scan.record) return;
    await this.writer.record({
      itemId: item.id,
      accountId: item.accountId,
      scannedAt: scan.scannedAt,
      ms: scan.ms,
      day: scan.day,
      isBot: scan.isBot,
      device: scan.device,
      os: scan.os,
      browser: scan.browser,
      country: scan.country,
      referrer: scan.referrerHost,
      visitorHash: scan.visitorHash,
      outcome: attribution.outcome,
      ruleId: attribution.ruleId,
      variant: attribution.variant ?? null,
      destination: attribution.destination ?? null,
    });
  }

  /** classify + record as one step (tests and callers with nothing to decide). */
  async track(item: { id: string; accountId: string }, req: ScanRequest, attribution: ScanAttribution = { outcome: 'redirect' }) {
    await this.record(item, await this.classify(req), attribution);
  }

  drain(): Promise<void> {
    return this.writer.drain();
  }
}
