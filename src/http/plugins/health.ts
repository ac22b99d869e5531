// Liveness (/healthz): the process serves. Readiness (/readyz): it can also read and write its database.
import type { AppServices } from '../../services.ts';
import { openedFileOf, readinessProblems, sharedReadiness } from '../health/readiness.ts';
import { FailureWatch, type ShortLinkHealth } from '../short-links/failure-watch.ts';
import { unencapsulated } from './unencapsulated.ts';

export const healthRoutes = unencapsulated<{ services: AppServices; health: ShortLinkHealth }>(async (app, { services, health }) => {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ ok: true }));
  const openedFile = openedFileOf(services.db);
  const readinessErrors = new FailureWatch(app.log, 'readiness: the database is not usable');
  const readiness = sharedReadiness(() => readinessProblems(services.db, health, openedFile, (err) => readinessErrors.failed(err)));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    const problems = await readiness();
    return reply.code(problems.length === 0 ? 200 : 503).send(problems.length === 0 ? { ok: true } : { ok: false, problems });
  });
});
