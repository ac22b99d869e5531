// Failures on the hot path, logged so an operator notices without drowning: the first one
// with its error, then one line a period with how many followed (docs/operations.md). A burst shorter than the period is still counted: its tail is
// logged when the period ends. The readiness check reads how lately each failed.
import type { FastifyBaseLogger } from 'fastify';

const LOG_EVERY_MS = 10_000;

export class FailureWatch {
  private lastLoggedAt = -Infinity;
  /** Failures since the last line, and the latest of their errors. */
  private since = 0;
  private latest: { err: unknown; fields: Record<string, unknown> } | null = null;
  private lastAt = -Infinity;
  private flush: NodeJS.Timeout | null = null;

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly message: string,
  ) {}

  failed(err: unknown, fields: Record<string, unknown> = {}, now = Date.now()): void {
    this.lastAt = now;
    this.since++;
    this.latest = { err, fields };
    if (now - this.lastLoggedAt >= LOG_EVERY_MS) {
      this.write(now);
      return;
    }
    // Within the period: the count waits for its end, when a timer writes it if no failure did.
    this.flush ??= setTimeout(() => this.write(Date.now()), this.lastLoggedAt + LOG_EVERY_MS - now).unref();
  }

  /** Whether one failed within the last `ms`. */
  failedWithin(ms: number, now = Date.now()): boolean {
    return now - this.lastAt < ms;
  }

  private write(now: number): void {
    if (this.flush) clearTimeout(this.flush);
    this.flush = null;
    if (this.since === 0 || !this.latest) return;
    const inLastMs = Number.isFinite(this.lastLoggedAt) ? now - this.lastLoggedAt : 0;
    this.log.error({ err: this.latest.err, ...this.latest.fields, failures: this.since, inLastMs }, this.message);
    this.lastLoggedAt = now;
    this.since = 0;
    this.latest = null;
  }
}

/** What the short links' failures say about the service, for GET /readyz. */
export interface ShortLinkHealth {
  /** Scans answered but not stored (the database refuses writes). */
  scans: FailureWatch;
  /** Short links not answered at all (the database cannot be read). */
  lookups: FailureWatch;
}
