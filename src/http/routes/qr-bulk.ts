// POST /v1/qr/bulk: pause, resume or delete up to 200 codes in one request.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { applyBulkAction } from '../../domain/qr-items/qr-bulk.ts';
import type { AppServices } from '../../services.ts';
import { accountOf } from '../auth/api-key-auth.ts';
import { BulkActionBody, BulkActionResponse } from '../schemas/bulk.ts';
import { authErrors, bodyErrors } from '../schemas/common.ts';

export const qrBulkRoutes: FastifyPluginAsyncTypebox<{ services: AppServices }> = async (app, { services }) => {
  app.post(
    '/qr/bulk',
    {
      config: { scope: 'qr:write' },
      schema: {
        operationId: 'bulkQrAction',
        summary: 'Pause, resume or delete up to 200 codes at once',
        description:
          'Applies the action to every listed code of the account in one transaction and answers which were changed and which ids are no live code of the account. ' +
          'Deleting cannot be undone: each deleted short link answers 410 from then on and its code is never reused.',
        tags: ['qr'],
        body: BulkActionBody,
        response: { 200: BulkActionResponse, ...authErrors, ...bodyErrors },
      },
    },
    async (req) => {
      const result = await applyBulkAction(services.items, accountOf(req), req.body.action, req.body.ids);
      await services.onItemsChanged(result.done.map((item) => item.code));
      return result;
    },
  );
};
