// The only entry point that listens. SIGTERM/SIGINT: stop accepting, drain, exit 0.
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { SqliteInUseError, claimSqliteFile } from './db/sqlite/sqlite-server-lock.ts';
import { makeSetupLink } from './first-run.ts';
import { type MetricsServer, startMetricsServer } from './metrics/metrics-server.ts';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`qrtrack: invalid configuration: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  if (config.database.kind === 'sqlite' && config.database.file !== ':memory:') {
    try {
      claimSqliteFile(config.database.file);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new Error(err instanceof SqliteInUseError ? `DATABASE_URL: ${reason}` : `DATABASE_URL: cannot open the database: ${reason}`);
    }
  }
  const db = await openDatabase(config.database).catch((err: unknown) => {
    throw new Error(`DATABASE_URL: cannot open the database: ${err instanceof Error ? err.message : String(err)}`);
  });
  const { app, services } = await buildApp(config, db, { compileSerializers: true });
  let closing = false;
  let metricsServer: MetricsServer | null = null;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // A request may never finish (a client that stops sending its body halfway), and Node stops
    // its own request timeouts once the server closes: past the grace period its connection is
    // cut, or the process would wait for it forever.
    const cut = setTimeout(() => {
      app.log.warn({ afterMs: config.shutdownTimeoutMs }, 'shutdown: cutting the connections of requests still in flight');
      app.server.closeAllConnections();
    }, config.shutdownTimeoutMs);
    cut.unref();
    try {
      await app.close(); // stops accepting, waits for in-flight requests and onClose hooks
      await metricsServer?.close();
      await db.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'unclean shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  await app.listen({ port: config.port, host: config.host }).catch((err: unknown) => {
    throw new Error(`HOST/PORT: cannot listen on ${config.host}:${config.port}: ${err instanceof Error ? err.message : String(err)}`);
  });
  // The commonest first mistake: codes that encode an address no phone can open.
  const address = services.addresses.publicAddress();
  if (address.warning !== null) app.log.warn({ publicBaseUrl: address.url, source: address.source }, address.warning);
  if (config.metrics !== null && services.metrics !== null) {
    const at = config.metrics;
    const metrics = services.metrics;
    metricsServer = await startMetricsServer(metrics, at, (err) => app.log.error({ err }, 'metrics could not be collected')).catch(
      (err: unknown) => {
        throw new Error(
          `METRICS_HOST/METRICS_PORT: cannot listen on ${at.host}:${at.port}: ${err instanceof Error ? err.message : String(err)}`,
        );
      },
    );
    app.log.info({ port: metricsServer.port }, `metrics at http://${at.host}:${metricsServer.port}/metrics`);
  }
  // First run: one line with the link that lets the owner in (it works once, for 24 hours; each start makes a new one and ends the earlier).
  const setupLink = await makeSetupLink(services.users, services.oneTimeLinks, services.addresses.publicUrl(), { replaceEarlier: true });
  if (setupLink !== null)
    process.stdout.write(`qrtrack: first run: open ${setupLink} to create the owner account (the link works once, within 24 hours)\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`qrtrack: failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
