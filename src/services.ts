// Composition root: the repositories and domain services one app instance uses.
// Built once per process from the config and an open database; the dialect decides
// only which scan writer and which short-link resolver are used.
import type { Config } from './config.ts';
import { AccountStatsRepository } from './db/stats/account-stats-repository.ts';
import { ApiKeysRepository } from './db/accounts/api-keys-repository.ts';
import type { Db } from './db/database.ts';
import { QrItemsRepository } from './db/qr-items/qr-items-repository.ts';
import { SaltsRepository } from './db/scans/salts-repository.ts';
import { type ScanWriteObserver, type ScanWriter, createScanWriter } from './db/scans/scan-writer.ts';
import { type RollupAggregator, createAggregator } from './db/scans/rollup-aggregator.ts';
import { ScanForgetter } from './db/scans/forget-scans.ts';
import { PostgresShortLinks } from './db/short-links/postgres-short-links.ts';
import { CachedShortLinks, type ShortLinkResolver } from './db/short-links/short-link-cache.ts';
import { StatsRepository } from './db/stats/stats-repository.ts';
import { MembersRepository } from './db/accounts/members-repository.ts';
import { OneTimeLinksRepository } from './db/accounts/one-time-links-repository.ts';
import { OnboardingRepository } from './db/accounts/onboarding-repository.ts';
import { SessionsRepository } from './db/accounts/sessions-repository.ts';
import { TrustedDevicesRepository } from './db/accounts/trusted-devices-repository.ts';
import { UsersRepository } from './db/accounts/users-repository.ts';
import type { Redis } from 'ioredis';
import { type AttemptCounter, AttemptLimiter, SIGN_UP_LIMITS, localAttempts } from './domain/accounts/attempt-limiter.ts';
import { SharedAttemptLimiter } from './db/accounts/shared-attempt-limiter.ts';
import { type ScanCap, scanCapFor } from './db/short-links/scan-cap.ts';
import { CODE_PASSWORD_LIMITS } from './domain/dynamic/code-password.ts';
import type { QrDesign } from './domain/design/design.ts';
import { createCountryLookup } from './domain/scans/country.ts';
import { ScanTracker } from './domain/scans/scan-tracker.ts';
import { designWarnings, warmFontsFor } from './render/index.ts';
import { type HeavyReads, heavyReadsFor } from './read-pool/heavy-reads.ts';
import { RenderPool } from './render-pool/render-pool.ts';
import { RunningJobs } from './bulk/running-jobs.ts';
import { Addresses } from './db/domains/addresses.ts';
import { DomainChecker } from './db/domains/domain-checker.ts';
import { DomainsRepository } from './db/domains/domains-repository.ts';
import { InstanceSettingsRepository } from './db/domains/instance-settings-repository.ts';
import { createTxtLookup } from './domain/domains/txt-lookup.ts';
import { type Metrics, createMetrics } from './metrics/metrics.ts';
import { type ShortLinkTally, newShortLinkTally } from './metrics/short-link-tally.ts';
import { WebhookDeliveriesRepository } from './db/webhooks/deliveries-repository.ts';
import { WebhookEndpointsRepository } from './db/webhooks/endpoints-repository.ts';
import { WebhookJobs } from './webhooks/webhook-jobs.ts';

export interface AppServices {
  config: Config;
  db: Db;
  keys: ApiKeysRepository;
  items: QrItemsRepository;
  stats: StatsRepository;
  accountStats: AccountStatsRepository;
  /** Stats, the overview, sparklines and exports: on SQLite in read workers, off the short links' thread. */
  reads: HeavyReads;
  links: ShortLinkResolver;
  tracker: ScanTracker;
  /**
   * Applies the scan log to the roll-ups off the redirect's path. Reads of scan counts await
   * catchUp() first, so a scan answered before a read began is in it.
   */
  rollups: RollupAggregator;
  /** DELETE /v1/qr/{id}/scans: forgets a code's scans and corrects every roll-up. */
  forgetter: ScanForgetter;
  /** The scan cap's atomic admission (db/short-links/scan-cap.ts). */
  scanCap: ScanCap;
  /** Wrong passwords of protected codes, per code and address (shared through Redis when configured). */
  codePasswordLimiter: AttemptCounter;
  salts: SaltsRepository;
  /** Draws images in worker threads, each job within a budget. */
  renderer: RenderPool;
  /** Short-link answers by outcome, counted whether metrics are served or not (one increment each). */
  shortLinkTally: ShortLinkTally;
  /** The Prometheus registry behind GET /metrics; null unless METRICS_PORT is set. */
  metrics: Metrics | null;
  /** The imports and exports running now: one of each per account. */
  bulkJobs: RunningJobs;
  users: UsersRepository;
  members: MembersRepository;
  sessions: SessionsRepository;
  /** Browsers users signed in from (their sign-ins are limited per browser). */
  trustedDevices: TrustedDevicesRepository;
  oneTimeLinks: OneTimeLinksRepository;
  onboarding: OnboardingRepository;
  /** Failed sign-ins per address and per email, in this process. */
  signInLimiter: AttemptCounter;
  /** Open sign-ups that created an account, per address: refused attempts (a typo, a taken name) do not count. */
  signUpLimiter: AttemptCounter;
  /**
   * Called after items were created, changed, paused, resumed or deleted, so their cached short
   * links are dropped; resolves when every process was told. Await it before answering a pause
   * or a delete, so no process still redirects once the client has the answer.
   */
  onItemsChanged(codes: readonly string[]): Promise<void>;
  /**
   * Scan warnings for a design drawn over `data`, the text its code encodes (the short link;
   * only its length matters). The fonts its frame text needs are read off the thread answering
   * the short links first, so call it outside transactions.
   */
  warningsFor(design: QrDesign, data: string): Promise<string[]>;
  /**
   * The public address and the accounts' domains, in memory: what short links are built on and
   * which Host answers which codes. Read at start (buildApp awaits its refresh).
   */
  addresses: Addresses;
  domains: DomainsRepository;
  instanceSettings: InstanceSettingsRepository;
  /** Verifies domains by their TXT record (DNS_RESOLVERS, else the system's resolver). */
  domainChecker: DomainChecker;
  webhookEndpoints: WebhookEndpointsRepository;
  webhookDeliveries: WebhookDeliveriesRepository;
  /** The delivery worker, the scan log's feed and the expiry check (started by the background jobs). */
  webhooks: WebhookJobs;
}

export function createServices(config: Config, db: Db, redis: Redis | null = null): AppServices {
  const items = new QrItemsRepository(db);
  // One SQLite process owns its cache; PostgreSQL processes invalidate each other's through NOTIFY.
  const links: ShortLinkResolver =
    config.database.kind === 'postgres' && db.pool
      ? new PostgresShortLinks(items, db.pool, config.database.url, config.shortLinkCacheBytes)
      : new CachedShortLinks(items, config.shortLinkCacheBytes);
  const renderer = new RenderPool(config.render);
  const shortLinkTally = newShortLinkTally();
  const rollups = createAggregator(db);
  const metrics =
    config.metrics === null
      ? null
      : createMetrics({
          shortLinks: shortLinkTally,
          renderLoad: () => renderer.load,
          pool: db.pool,
          rollupLag: () => rollups.lag(),
          shortLinkCache: () => links.cacheStats(),
        });
  const writes = metrics?.scanWrites ?? null;
  // Each committed batch starts the aggregator (at most every few ms on PostgreSQL).
  const observer: ScanWriteObserver = {
    written(scans, seconds, logged) {
      writes?.written(scans, seconds);
      if (logged !== undefined) rollups.offer(logged);
      rollups.nudge();
    },
    failed(scans, seconds) {
      writes?.failed(scans, seconds);
    },
  };
  const writer: ScanWriter = createScanWriter(db, observer);
  const salts = new SaltsRepository(db);
  const countries = createCountryLookup({ trustedHeader: config.countryHeader, database: 'bundled' });
  const domains = new DomainsRepository(db);
  const instanceSettings = new InstanceSettingsRepository(db);
  const webhookEndpoints = new WebhookEndpointsRepository(db);
  const reads = heavyReadsFor(config, db);
  const webhookDeliveries = new WebhookDeliveriesRepository(db, reads.scanBatchMaker ?? undefined);
  const webhooks = new WebhookJobs(db, webhookDeliveries, webhookEndpoints, {
    ...config.webhooks,
    metrics: metrics?.webhooks ?? null,
  });
  const addresses = new Addresses(instanceSettings, domains, { url: config.publicBaseUrl, fromEnv: config.publicBaseUrlFromEnv });
  return {
    config,
    db,
    keys: new ApiKeysRepository(db),
    items,
    stats: new StatsRepository(db),
    accountStats: new AccountStatsRepository(db),
    reads,
    links,
    tracker: new ScanTracker(writer, salts, countries),
    rollups,
    forgetter: new ScanForgetter(db, rollups, reads.forgetPlanner),
    scanCap: scanCapFor(db),
    codePasswordLimiter: redis
      ? new SharedAttemptLimiter(redis, new AttemptLimiter(CODE_PASSWORD_LIMITS), 'qrtrack-code-password:')
      : localAttempts(new AttemptLimiter(CODE_PASSWORD_LIMITS)),
    salts,
    renderer,
    shortLinkTally,
    metrics,
    bulkJobs: new RunningJobs(db),
    users: new UsersRepository(db),
    members: new MembersRepository(db),
    sessions: new SessionsRepository(db),
    trustedDevices: new TrustedDevicesRepository(db),
    oneTimeLinks: new OneTimeLinksRepository(db),
    onboarding: new OnboardingRepository(db),
    signInLimiter: redis ? new SharedAttemptLimiter(redis, new AttemptLimiter()) : localAttempts(new AttemptLimiter()),
    signUpLimiter: redis
      ? new SharedAttemptLimiter(redis, new AttemptLimiter(SIGN_UP_LIMITS), 'qrtrack-signup:')
      : localAttempts(new AttemptLimiter(SIGN_UP_LIMITS)),
    onItemsChanged: (codes) => {
      // Their webhook events are in the outbox now.
      webhooks.worker.nudge();
      return links.invalidate(codes);
    },
    warningsFor: async (design, data) => {
      if (design.frameStyle !== 'none') await warmFontsFor(design.frameText);
      return designWarnings(design, data);
    },
    addresses,
    domains,
    instanceSettings,
    domainChecker: new DomainChecker(domains, createTxtLookup(config.dnsResolvers), addresses),
    webhookEndpoints,
    webhookDeliveries,
    webhooks,
  };
}
