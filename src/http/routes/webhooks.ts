// Webhook endpoints of the account (Account → Webhooks; docs/webhooks.md): API keys with the
// webhooks scopes, or owners' sessions (only owners' roles carry them).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ConflictError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { normalizeTag } from '../../domain/qr-items/tags.ts';
import { checkWebhookUrl } from '../../domain/webhooks/destination.ts';
import { eventBody } from '../../domain/webhooks/payloads.ts';
import { ENDPOINTS_PER_ACCOUNT, type EndpointFilter, TEST_EVENT } from '../../domain/webhooks/webhook-events.ts';
import { unknownItemIds } from '../../db/webhooks/endpoints-repository.ts';
import type { AppServices } from '../../services.ts';
import { accountOf } from '../auth/api-key-auth.ts';
import { ErrorResponse, IdParams, OkResponse, authErrors, bodyErrors } from '../schemas/common.ts';
import {
  CreateWebhookBody,
  DeliveriesQuery,
  DeliveryParams,
  UpdateWebhookBody,
  WebhookDeliveriesResponse,
  WebhookResponse,
  WebhookWithSecretResponse,
  WebhooksResponse,
} from '../schemas/webhooks.ts';

const tags = ['webhooks'];
const errors = { ...authErrors, 404: ErrorResponse };

export const webhookRoutes: FastifyPluginAsyncTypebox<{ services: AppServices }> = async (app, { services }) => {
  const { webhookEndpoints: endpoints, webhookDeliveries: deliveries, config, db } = services;
  const found = async (accountId: string, id: string) => {
    const endpoint = await endpoints.find(accountId, id);
    if (!endpoint) throw new NotFoundError('webhook not found');
    return endpoint;
  };
  const filterOf = async (accountId: string, raw: { tags?: string[]; itemIds?: string[] } | undefined): Promise<EndpointFilter> => {
    const tagList = [...new Set((raw?.tags ?? []).map((t, i) => normalizeTag(t, `filter.tags[${i}]`)))];
    const itemIds = [...new Set(raw?.itemIds ?? [])];
    const unknown = await unknownItemIds(db, accountId, itemIds);
    if (unknown.length > 0) throw new ValidationError(`filter.itemIds: ${unknown[0]} is no code of this account`);
    return { tags: tagList, itemIds };
  };

  app.get(
    '/webhooks',
    {
      config: { scope: 'webhooks:read' },
      schema: {
        operationId: 'listWebhooks',
        summary: "The account's webhook endpoints",
        tags,
        response: { 200: WebhooksResponse, ...authErrors },
      },
    },
    async (req) => ({ webhooks: await endpoints.list(accountOf(req)) }),
  );

  app.post(
    '/webhooks',
    {
      config: { scope: 'webhooks:write' },
      schema: {
        operationId: 'createWebhook',
        summary: 'Add a webhook endpoint; the answer carries its signing secret, shown only this once',
        tags,
        body: CreateWebhookBody,
        response: { 201: WebhookWithSecretResponse, ...authErrors, 409: ErrorResponse, ...bodyErrors },
      },
    },
    async (req, reply) => {
      const accountId = accountOf(req);
      const url = checkWebhookUrl(req.body.url, config.webhooks.allowPrivate);
      const filter = await filterOf(accountId, req.body.filter);
      if ((await endpoints.count(accountId)) >= ENDPOINTS_PER_ACCOUNT)
        throw new ConflictError(`url: an account holds at most ${ENDPOINTS_PER_ACCOUNT} webhook endpoints; delete one first`);
      const created = await endpoints.create(accountId, {
        url,
        description: (req.body.description ?? '').trim(),
        events: req.body.events,
        filter,
        includeBots: req.body.includeBots ?? false,
      });
      return reply.code(201).send({ webhook: created.endpoint, secret: created.secret });
    },
  );

  app.get(
    '/webhooks/:id',
    {
      config: { scope: 'webhooks:read' },
      schema: {
        operationId: 'getWebhook',
        summary: 'One webhook endpoint',
        tags,
        params: IdParams,
        response: { 200: WebhookResponse, ...errors },
      },
    },
    async (req) => ({ webhook: await found(accountOf(req), req.params.id) }),
  );

  app.patch(
    '/webhooks/:id',
    {
      config: { scope: 'webhooks:write' },
      schema: {
        operationId: 'updateWebhook',
        summary: 'Change an endpoint: its URL, events, filter, description; disable it, or enable it again',
        tags,
        params: IdParams,
        body: UpdateWebhookBody,
        response: { 200: WebhookResponse, ...errors, ...bodyErrors },
      },
    },
    async (req) => {
      const accountId = accountOf(req);
      await found(accountId, req.params.id);
      const { url, events, description, filter, includeBots, enabled } = req.body;
      const webhook = await endpoints.update(accountId, req.params.id, {
        url: url === undefined ? undefined : checkWebhookUrl(url, config.webhooks.allowPrivate),
        events,
        description: description?.trim(),
        filter: filter === undefined ? undefined : await filterOf(accountId, filter),
        includeBots,
        enabled,
      });
      if (!webhook) throw new NotFoundError('webhook not found');
      if (enabled === true) services.webhooks.worker.nudge();
      return { webhook };
    },
  );

  app.delete(
    '/webhooks/:id',
    {
      config: { scope: 'webhooks:write' },
      schema: {
        operationId: 'deleteWebhook',
        summary: 'Delete an endpoint and its delivery log; nothing more is sent to it',
        tags,
        params: IdParams,
        response: { 200: OkResponse, ...errors },
      },
    },
    async (req) => {
      if (!(await endpoints.delete(accountOf(req), req.params.id))) throw new NotFoundError('webhook not found');
      return { ok: true };
    },
  );

  app.post(
    '/webhooks/:id/rotate-secret',
    {
      config: { scope: 'webhooks:write' },
      schema: {
        operationId: 'rotateWebhookSecret',
        summary: 'A new signing secret, shown once; the old one also signs for 24 hours (two v1 signatures)',
        tags,
        params: IdParams,
        response: { 200: WebhookWithSecretResponse, ...errors },
      },
    },
    async (req) => {
      const rotated = await endpoints.rotateSecret(accountOf(req), req.params.id);
      if (!rotated) throw new NotFoundError('webhook not found');
      return { webhook: rotated.endpoint, secret: rotated.secret };
    },
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      config: { scope: 'webhooks:read' },
      schema: {
        operationId: 'listWebhookDeliveries',
        summary: "The endpoint's delivery log, newest first (kept 30 days)",
        tags,
        params: IdParams,
        querystring: DeliveriesQuery,
        response: { 200: WebhookDeliveriesResponse, ...errors },
      },
    },
    async (req) => {
      const endpoint = await found(accountOf(req), req.params.id);
      const { limit = 50, cursor } = req.query;
      return deliveries.list(endpoint.id, limit, cursor === undefined ? undefined : Number(cursor));
    },
  );

  app.post(
    '/webhooks/:id/deliveries/:deliveryId/resend',
    {
      config: { scope: 'webhooks:write' },
      schema: {
        operationId: 'resendWebhookDelivery',
        summary: 'Send a delivery again now, with the same webhook-id and body (a fresh run of retries)',
        tags,
        params: DeliveryParams,
        response: { 200: OkResponse, ...errors },
      },
    },
    async (req) => {
      const endpoint = await found(accountOf(req), req.params.id);
      if (!(await deliveries.resend(endpoint.id, req.params.deliveryId))) throw new NotFoundError('delivery not found');
      services.webhooks.worker.nudge();
      return { ok: true };
    },
  );

  app.post(
    '/webhooks/:id/test',
    {
      config: { scope: 'webhooks:write' },
      schema: {
        operationId: 'testWebhook',
        summary: 'Queue a webhook.test event to the endpoint (whatever it subscribes to); see its delivery log',
        tags,
        params: IdParams,
        response: { 202: OkResponse, ...errors, 409: ErrorResponse },
      },
    },
    async (req, reply) => {
      const accountId = accountOf(req);
      const endpoint = await found(accountId, req.params.id);
      if (!endpoint.enabled) throw new ConflictError('webhook: is disabled; enable it first (PATCH {"enabled": true})');
      const now = new Date();
      await deliveries.enqueue(
        accountId,
        endpoint.id,
        TEST_EVENT,
        eventBody(TEST_EVENT, now.toISOString(), {
          webhookId: endpoint.id,
          message: 'A test event from qrtrack: your endpoint receives and verifies webhooks.',
        }),
        now,
      );
      services.webhooks.worker.nudge();
      return reply.code(202).send({ ok: true });
    },
  );
};
