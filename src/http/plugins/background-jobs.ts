// Work beside the requests: the daily salt purge and the quarter-hour breakdown prune, and
// the close that ends them: connections let go, queued scans committed, pools closed.
import { startQuarterDimsPrune } from '../../db/scans/quarter-dims-retention.ts';
import { startSaltPurge } from '../../db/scans/salts-repository.ts';
import type { AppServices } from '../../services.ts';
import { unencapsulated } from './unencapsulated.ts';

export const backgroundJobs = unencapsulated<{ services: AppServices; onClosing: () => void }>(async (app, { services, onClosing }) => {
  const stopSaltPurge = startSaltPurge(services.salts, (err) => app.log.warn({ err }, 'could not purge expired salts'));
  const stopQuarterPrune = startQuarterDimsPrune(services.db, (err) =>
    app.log.warn({ err }, 'could not prune old quarter-hour breakdowns'),
  );
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
    await stopSaltPurge();
    await stopQuarterPrune();
    await services.tracker.drain();
    await services.links.close?.();
    await services.renderer.close();
    await services.reads.close();
  });
});
