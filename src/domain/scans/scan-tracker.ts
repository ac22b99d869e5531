// The one place that owns the tracking policy: which requests count as scans (not
// HEAD, not prefetch), which are bots (recorded, but apart), what a scan stores (no
// raw IP: a salted, truncated hash of it), and that a scan is durable before the
// answer goes out.
import type { ScanWriter } from '../../db/scans/scan-writer.ts';
import type { CountryLookup } from './country.ts';
import { buildScan } from './scan.ts';

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

export class ScanTracker {
  constructor(
    private readonly writer: ScanWriter,
    private readonly salts: SaltSource,
    private readonly countries: CountryLookup,
  ) {}

  /** Records the request as a scan of the item if the policy says so; resolves once it is committed. */
  async track(item: { id: string; accountId: string }, req: ScanRequest): Promise<void> {
    const now = Date.now();
    const salt = this.salts.peek(now) ?? (await this.salts.current(now));
    const scan = buildScan({ method: req.method, headers: req.headers, ip: req.ip, now, salt, countryLookup: this.countries });
    if (!scan.record) return;
    await this.writer.record({
      itemId: item.id,
      accountId: item.accountId,
      scannedAt: scan.scannedAt,
      ms: now,
      day: scan.day,
      isBot: scan.isBot,
      device: scan.device,
      os: scan.os,
      browser: scan.browser,
      country: scan.country,
      referrer: scan.referrerHost,
      visitorHash: scan.visitorHash,
    });
  }

  drain(): Promise<void> {
    return this.writer.drain();
  }
}
