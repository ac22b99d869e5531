// Failures on the hot path, logged so an operator notices without drowning: the first one
// with its error, then one line a period with how many followed. A full disk made every scan
// log its stack (13 MB in 3 s). The readiness check reads how lately each failed.
import type { FastifyBaseLogger } from 'fastify';

const LOG_EVERY_MS = 10_000;

export class FailureWatch {
  private lastLoggedAt = -Infinity;
  private since = 0;
  private lastAt = -Infinity;

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly message: string,
  ) {}

  failed(err: unknown, fields: Record<string, unknown> = {}, now = Date.now()): void {
    this.lastAt = now;
    this.since++;
    if (now - this.lastLoggedAt < LOG_EVERY_MS) return;
    this.log.error({ err, ...fields, failures: this.since, inLastMs: Number.isFinite(this.lastLoggedAt) ? now - this.lastLoggedAt : 0 }, this.message);
    this.lastLoggedAt = now;
    this.since = 0;
  }

  /** Whether one failed within the last `ms`. */
  failedWithin(ms: number, now = Date.now()): boolean {
    return now - this.lastAt < ms;
  }
}

/** What the short links' failures say about the service, for GET /readyz. */
export interface ShortLinkHealth {
  /** Scans answered but not stored (the database refuses writes). */
  scans: FailureWatch;
  /** Short links not answered at all (the database cannot be read). */
  lookups: FailureWatch;
}
