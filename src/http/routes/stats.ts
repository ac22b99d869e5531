// GET /v1/qr/{id}/stats
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { itemStats } from '../../domain/stats/item-stats.ts';
import type { AppServices } from '../../services.ts';
import { accountOf } from '../auth.ts';
import { IdParams, StatsQuery, StatsResponse, authErrors, notFoundAnswer } from '../schemas.ts';

export const statsRoutes: FastifyPluginAsyncTypebox<{ services: AppServices }> = async (app, { services }) => {
  app.get(
    '/qr/:id/stats',
    {
      config: { scope: 'qr:read' },
      schema: {
        operationId: 'getQrStats',
        summary: 'Scan statistics: totals, a zero-filled daily series, recent scans and breakdowns',
        tags: ['stats'],
        params: IdParams,
        querystring: StatsQuery,
        response: { 200: StatsResponse, ...authErrors, 404: notFoundAnswer },
      },
    },
    async (req) => {
      const { days = 14, tz = 'UTC' } = req.query;
      return itemStats(services.stats, { accountId: accountOf(req), id: req.params.id, days, tz });
    },
  );
};
