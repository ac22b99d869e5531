// Verifies domains: at once when an owner asks (POST /v1/domains/{id}/verify), and on a timer
// for those waiting (every few minutes for a week) and those active (hourly, so a domain whose
// record was removed stops serving). Only a DNS TXT lookup: nothing is fetched from the domain.
import { afterCheck } from '../../domain/domains/domain.ts';
import type { TxtLookup } from '../../domain/domains/txt-lookup.ts';
import type { Addresses } from './addresses.ts';
import type { DomainToCheck, DomainsRepository } from './domains-repository.ts';

export interface CheckTimes {
  /** How often the timer looks at due domains. */
  tickMs: number;
  /** A pending domain is looked up again after this long. */
  pendingEveryMs: number;
  /** An active one after this long. */
  activeEveryMs: number;
}

export const DEFAULT_CHECK_TIMES: CheckTimes = { tickMs: 60_000, pendingEveryMs: 5 * 60_000, activeEveryMs: 3600_000 };

export class DomainChecker {
  constructor(
    private readonly domains: DomainsRepository,
    private readonly lookup: TxtLookup,
    private readonly addresses: Addresses,
  ) {}

  /** Looks the domain's record up, stores what became of it, and refreshes the hosts when that changed. */
  async check(domain: DomainToCheck): Promise<void> {
    const answer = await this.lookup(domain.hostname, domain.token);
    const outcome = afterCheck(domain, answer, domain.hostname, Date.now());
    await this.domains.recordCheck(domain.id, outcome);
    if (outcome.status !== domain.status) await this.addresses.refresh();
  }

  /** One pass of the timer: every due domain, one at a time. */
  async checkDue(times: CheckTimes = DEFAULT_CHECK_TIMES): Promise<number> {
    const due = await this.domains.dueForCheck(times.pendingEveryMs, times.activeEveryMs);
    for (const d of due) await this.check(d);
    return due.length;
  }

  /** Starts the timer (unref'd: it never keeps the process alive); returns its stop. */
  start(onError: (err: unknown) => void, times: CheckTimes = DEFAULT_CHECK_TIMES): () => Promise<void> {
    let running: Promise<unknown> = Promise.resolve();
    const timer = setInterval(() => {
      running = this.checkDue(times).catch(onError);
    }, times.tickMs);
    timer.unref();
    return async () => {
      clearInterval(timer);
      await running;
    };
  }
}
