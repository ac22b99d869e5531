// A code's smart-redirect rules: replace the whole list, and try a described visit against
// them without recording anything (docs/dynamic-codes.md).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { inTransaction } from '../../db/transaction.ts';
import { QrItemsRepository } from '../../db/qr-items/qr-items-repository.ts';
import { compileRules } from '../../domain/dynamic/compile-rules.ts';
import { Rules, RulesTestRequest, RulesTestResult } from '../../domain/dynamic/rules-schema.ts';
import { testRules } from '../../domain/dynamic/try-rules.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import { planUpdate, toView } from '../../domain/qr-items/qr-item.ts';
import { NO_LOGOS } from '../../domain/design/request-logos.ts';
import { named } from '../../domain/schema-kit.ts';
import type { AppServices } from '../../services.ts';
import { accountOf } from '../auth/api-key-auth.ts';
import { IdParams, authErrors, bodyErrors, notFoundAnswer } from '../schemas/common.ts';
import { ItemResponse } from '../schemas/qr-items.ts';
import { planContext } from './qr-items.ts';

const PutRulesBody = named(
  'PutRulesRequest',
  Type.Object({ rules: Rules }, { additionalProperties: false, rule: 'must be a JSON object with rules' }),
);

export const qrRulesRoutes: FastifyPluginAsyncTypebox<{ services: AppServices }> = async (app, { services }) => {
  const { items, onItemsChanged } = services;

  app.put(
    '/qr/:id/rules',
    {
      config: { scope: 'qr:write' },
      schema: {
        operationId: 'putQrRules',
        summary: "Replace a code's smart-redirect rules ([] removes them)",
        tags: ['qr'],
        params: IdParams,
        body: PutRulesBody,
        response: { 200: ItemResponse, ...authErrors, 404: notFoundAnswer, ...bodyErrors },
      },
    },
    async (req) => {
      const account = accountOf(req);
      const updated = await inTransaction(services.db, async (tx) => {
        const repo = new QrItemsRepository(tx);
        const current = await repo.find(account, req.params.id, true);
        if (!current) return null;
        return repo.update(account, current.id, planUpdate(current, { rules: req.body.rules }, planContext(services), NO_LOGOS));
      });
      if (!updated) throw new NotFoundError('QR item not found');
      await onItemsChanged([updated.code]);
      return { item: toView(updated, services.addresses) };
    },
  );

  app.post(
    '/qr/:id/rules/test',
    {
      config: { scope: 'qr:read' },
      schema: {
        operationId: 'testQrRules',
        summary: 'Which rule, split variant and destination a described visit would get; records nothing',
        tags: ['qr'],
        params: IdParams,
        body: RulesTestRequest,
        response: { 200: RulesTestResult, ...authErrors, 404: notFoundAnswer, ...bodyErrors },
      },
    },
    async (req) => {
      const item = await items.find(accountOf(req), req.params.id);
      if (!item) throw new NotFoundError('QR item not found');
      const at = req.body.at === undefined ? Date.now() : Date.parse(req.body.at);
      if (Number.isNaN(at)) throw new ValidationError('at: must be an ISO 8601 date-time');
      const utm = Object.keys(item.utm).length > 0 ? item.utm : null;
      return testRules(compileRules(item.rules), req.body, { destination: item.payload, forwardQuery: item.forwardQuery, utm }, at);
    },
  );
};
