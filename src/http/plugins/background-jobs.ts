// Work beside the requests: the scan log's aggregator, its retention and monthly partitions (PostgreSQL), the daily salt
// purge and the quarter-hour breakdown prune, and
// the close that ends them: connections let go, queued scans committed, pools closed.
import { readServerSettings, settingsWarning } from '../../db/postgres/server-settings.ts';
import { startQuarterDimsPrune } from '../../db/scans/quarter-dims-retention.ts';
import { startSaltPurge } from '../../db/scans/salts-repository.ts';
import { startScanPartitions } from '../../db/scans/scan-partitions.ts';
import { startScanRetention } from '../../db/scans/scan-retention.ts';
import type { AppServices } from '../../services.ts';
import { unencapsulated } from './unencapsulated.ts';

/** How stale another process's change to the domains or the address may be here (PostgreSQL). */
const ADDRESSES_REREAD_MS = 30_000;

export const backgroundJobs = unencapsulated<{ services: AppServices; onClosing: () => void }>(async (app, { services, onClosing }) => {
  const stopSaltPurge = startSaltPurge(services.salts, (err) => app.log.warn({ err }, 'could not purge expired salts'));
  const stopQuarterPrune = startQuarterDimsPrune(services.db, (err) =>
    app.log.warn({ err }, 'could not prune old quarter-hour breakdowns'),
  );
  const stopDomainChecks = services.domainChecker.start((err) => app.log.warn({ err }, 'could not check domains'));
  const stopRetention = startScanRetention(services.db, (err) => app.log.warn({ err }, 'could not apply the accounts’ scan retention'));
  const stopPartitions = startScanPartitions(services.db, (err) => app.log.warn({ err }, 'could not look after the scan log’s partitions'));
  services.rollups.start((err) => app.log.warn({ err }, 'could not apply scans to the statistics'));
  services.webhooks.start((err) => app.log.warn({ err }, 'webhooks: a round failed'));
  const pool = services.db.pool;
  if (pool !== null) {
    // Said once at start, where an operator reads the log (docs/operations.md#postgresql).
    void readServerSettings(pool)
      .then((settings) => {
        const warning = settingsWarning(settings);
        if (warning !== null) app.log.warn(warning);
      })
      .catch(() => {});
  }
  // Other processes (PostgreSQL) may change the address or the domains: read them again now and then.
  const reread =
    services.config.database.kind === 'postgres'
      ? setInterval(
          () => void services.addresses.refresh().catch((err: unknown) => app.log.warn({ err }, 'could not read the domains')),
          ADDRESSES_REREAD_MS,
        ).unref()
      : undefined;
  let drain: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    onClosing();
    // A connection whose answer began before closing goes idle after it, kept alive: close
    // such ones as they come (closing once leaves later ones to the grace period's cut).
    app.server.closeIdleConnections();
    drain = setInterval(() => app.server.closeIdleConnections(), 50).unref();
  });
  // Scans still queued are committed before the process lets go of the database.
  app.addHook('onClose', async () => {
    clearInterval(drain);
    clearInterval(reread);
    await stopDomainChecks();
    await services.webhooks.stop();
    await stopSaltPurge();
    await stopQuarterPrune();
    await stopRetention();
    await stopPartitions();
    await services.tracker.drain();
    await services.rollups.stop();
    await services.links.close?.();
    await services.renderer.close();
    await services.reads.close();
  });
});
