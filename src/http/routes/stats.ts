// The stats routes: per item (JSON, CSV, and a cheap poll of recent scans) and for the
// whole account (JSON, CSV). All read roll-ups only; all need qr:read.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { RECENT_LIMIT, recentScans } from '../../domain/stats/item-stats.ts';
import { parseForgetRange } from '../../domain/stats/forget-range.ts';
import type { AppServices } from '../../services.ts';
import { accountOf } from '../auth/api-key-auth.ts';
import { IdParams, authErrors, notFoundAnswer } from '../schemas/common.ts';
import { StatsQuery, StatsResponse } from '../schemas/stats.ts';
import { breakdownCsv, csvDisposition, dailyCsv, topCodesCsv } from '../downloads/stats-csv.ts';
import {
  AccountStatsCsvQuery,
  AccountStatsQuery,
  AccountStatsResponse,
  CsvResponse,
  ItemStatsCsvQuery,
  RecentQuery,
  RecentResponse,
  ForgetScansQuery,
  ForgetScansResponse,
} from '../schemas/stats.ts';

const CSV_TYPE = 'text/csv; charset=utf-8';
/** The CSV of top codes lists this many: the most the JSON answer can be asked for. */
const CSV_TOP = 100;

export const statsRoutes: FastifyPluginAsyncTypebox<{ services: AppServices }> = async (app, { services }) => {
  app.delete(
    '/qr/:id/scans',
    {
      config: { scope: 'qr:write' },
      schema: {
        operationId: 'forgetQrScans',
        summary: 'Forget the code’s scans in a range (all of them without one) and correct every count, total and breakdown',
        tags: ['stats'],
        params: IdParams,
        querystring: ForgetScansQuery,
        response: { 200: ForgetScansResponse, ...authErrors, 404: notFoundAnswer },
      },
    },
    async (req) => {
      const range = parseForgetRange(req.query);
      return services.forgetter.forget(accountOf(req), req.params.id, range);
    },
  );

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
      return services.reads.itemStats({ accountId: accountOf(req), id: req.params.id, days, tz });
    },
  );

  app.get(
    '/qr/:id/stats.csv',
    {
      config: { scope: 'qr:read' },
      schema: {
        operationId: 'getQrStatsCsv',
        summary: "An item's daily series or breakdowns as CSV (the same numbers as /stats)",
        tags: ['stats'],
        params: IdParams,
        querystring: ItemStatsCsvQuery,
        response: { 200: CsvResponse, ...authErrors, 404: notFoundAnswer },
      },
    },
    async (req, reply) => {
      const { days = 14, tz = 'UTC', part = 'daily' } = req.query as { days?: number; tz?: string; part?: 'daily' | 'breakdown' };
      const stats = await services.reads.itemStats({ accountId: accountOf(req), id: req.params.id, days, tz });
      const body = part === 'breakdown' ? breakdownCsv(stats.breakdown) : dailyCsv(stats.daily);
      return reply
        .type(CSV_TYPE)
        .header('content-disposition', csvDisposition(['qrtrack', stats.code, part, stats.from, stats.to]))
        .send(body);
    },
  );

  app.get(
    '/qr/:id/recent',
    {
      config: { scope: 'qr:read' },
      schema: {
        operationId: 'getQrRecentScans',
        summary: "An item's counters and newest human scans: a cheap poll for a live view",
        description:
          `Answers the item's counters and its ${RECENT_LIMIT} newest human scans, or only those after \`since\`. ` +
          'Costs one row and one short index walk, so a page may poll it every few seconds and reload the full stats only when scanCount changes.',
        tags: ['stats'],
        params: IdParams,
        querystring: RecentQuery,
        response: { 200: RecentResponse, ...authErrors, 404: notFoundAnswer },
      },
    },
    async (req) => recentScans(services.stats, { accountId: accountOf(req), id: req.params.id, since: req.query.since }),
  );

  app.get(
    '/stats',
    {
      config: { scope: 'qr:read' },
      schema: {
        operationId: 'getAccountStats',
        summary: "The account's scans over a range across all its codes: daily series, top codes and breakdowns",
        description:
          'Scans of deleted codes stay in the series, totals and breakdowns (they happened); top codes list live codes only. ' +
          "Unique scans are the sum of each code's unique scans. The cost does not grow with the number of scans.",
        tags: ['stats'],
        querystring: AccountStatsQuery,
        response: { 200: AccountStatsResponse, ...authErrors },
      },
    },
    async (req) => {
      const { days = 14, tz = 'UTC', top } = req.query;
      return services.reads.accountStats({ accountId: accountOf(req), days, tz, top });
    },
  );

  app.get(
    '/stats.csv',
    {
      config: { scope: 'qr:read' },
      schema: {
        operationId: 'getAccountStatsCsv',
        summary: "The account's daily series, breakdowns or top codes as CSV (the same numbers as /stats)",
        tags: ['stats'],
        querystring: AccountStatsCsvQuery,
        response: { 200: CsvResponse, ...authErrors },
      },
    },
    async (req, reply) => {
      const {
        days = 14,
        tz = 'UTC',
        part = 'daily',
        top = CSV_TOP,
      } = req.query as { days?: number; tz?: string; part?: 'daily' | 'breakdown' | 'top'; top?: number };
      const stats = await services.reads.accountStats({ accountId: accountOf(req), days, tz, top });
      const body =
        part === 'breakdown' ? breakdownCsv(stats.breakdown) : part === 'top' ? topCodesCsv(stats.topCodes) : dailyCsv(stats.daily);
      return reply
        .type(CSV_TYPE)
        .header('content-disposition', csvDisposition(['qrtrack', 'account', part, stats.from, stats.to]))
        .send(body);
    },
  );
};
