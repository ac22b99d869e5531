// The v1 QR items endpoints: thin handlers over the domain rules and the repository.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { LIMITS } from '../../domain/design/design.ts';
import { type ParseLogo, parseLogosOf } from '../../domain/design/request-logos.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { decodeCursor, encodeCursor } from '../../domain/qr-items/list-cursor.ts';
import { checkTimeZone } from '../../domain/stats/time-zones.ts';
import { normalizeTag } from '../../domain/qr-items/tags.ts';
import {
  type PlanContext,
  type QrItemRecord,
  type QrItemRequest,
  planCreate,
  planUpdate,
  requestWarnings,
  toView,
} from '../../domain/qr-items/qr-item.ts';
import { passwordOf } from '../../domain/dynamic/code-password.ts';
import { QrItemsRepository } from '../../db/qr-items/qr-items-repository.ts';
import { CODE_LENGTH, shortUrlFor } from '../../domain/qr-items/short-code.ts';
import { inTransaction } from '../../db/transaction.ts';
import { domainForChange, domainForNewCode } from '../../db/domains/item-domains.ts';
import type { AppServices } from '../../services.ts';
import { accountOf } from '../auth/api-key-auth.ts';
import { IdempotencyHeaders, answerOnce } from '../request/idempotency.ts';
import { CreateQrBody, ItemResponse, ItemWithWarningsResponse, ListQuery, ListResponse, UpdateQrBody } from '../schemas/qr-items.ts';
import { ErrorResponse, IdParams, OkResponse, authErrors, bodyErrors, notFoundAnswer, renderBusyAnswer } from '../schemas/common.ts';

const DEFAULT_LIMIT = 50;

/** What the item rules know of the service: its address now (a code may not redirect to its own short links). */
export function planContext(services: AppServices): PlanContext {
  return { publicBaseUrl: services.addresses.publicUrl() };
}

export const qrItemsRoutes: FastifyPluginAsyncTypebox<{ services: AppServices }> = async (app, { services }) => {
  const { items, config, onItemsChanged, warningsFor, renderer } = services;
  const view = (item: QrItemRecord) => toView(item, services.addresses);
  // A logo is sanitized in the render pool and tried once, when it is given, at the largest
  // size any image draws it: a stored item whose logo costs more than the render budget
  // could stall every image of it later.
  const parseLogoFor =
    (account: string): ParseLogo =>
    (field, logo) =>
      renderer.parseLogo(field, logo, LIMITS.resolution.max, { account, lane: 'interactive' });

  app.post(
    '/qr',
    {
      config: { scope: 'qr:write' },
      schema: {
        operationId: 'createQr',
        summary: 'Create a tracked QR code',
        tags: ['qr'],
        headers: IdempotencyHeaders,
        body: CreateQrBody,
        response: {
          201: ItemWithWarningsResponse,
          ...authErrors,
          409: ErrorResponse,
          ...bodyErrors,
          422: ErrorResponse,
          503: renderBusyAnswer,
        },
      },
    },
    async (req, reply) => {
      const account = accountOf(req);
      const body: QrItemRequest = req.body;
      const domainId = await domainForNewCode(services.domains, account, body.domain);
      const planned = planCreate(body, planContext(services), await parseLogosOf(body, parseLogoFor(account)), await passwordOf(body));
      const content = { ...planned, domainId };
      // Laid out before the transaction (fonts are read on first use); a code's warnings depend
      // on its short link only through the length every code on its domain shares.
      const designWarnings = await warningsFor(content.design, shortUrlFor(services.addresses.baseFor(domainId), 'x'.repeat(CODE_LENGTH)));
      const answer = await answerOnce(services.db, req, reply, 201, async (db) => {
        const item = await new QrItemsRepository(db).create(account, content, config.maxCodesPerAccount);
        const shown = view(item);
        return { item: shown, warnings: [...requestWarnings(body, item.contentType), ...designWarnings] };
      });
      void onItemsChanged([answer.item.code]); // a new code: the answer is already sent
      return reply;
    },
  );

  app.get(
    '/qr',
    {
      config: { scope: 'qr:read' },
      schema: {
        operationId: 'listQr',
        summary: 'List QR codes, newest first',
        description:
          "With include=sparkline the answer also carries each listed code's human scans per day over the last 14 days (in `tz`), " +
          'read for the whole page at once from the daily roll-ups: its cost grows with the page size, not with the number of scans.',
        tags: ['qr'],
        querystring: ListQuery,
        response: { 200: ListResponse, ...authErrors },
      },
    },
    async (req) => {
      const { limit = DEFAULT_LIMIT, cursor, active, contentType, status, q, tag, include, tz = 'UTC' } = req.query;
      // Checked before the page is read, so a bad zone is a 400 whether or not sparklines are asked for.
      const zone = checkTimeZone(tz);
      // Read in a read worker on SQLite, the page and its sparklines in one snapshot.
      const page = await services.reads.listPage({
        accountId: accountOf(req),
        query: {
          limit,
          cursor: cursor === undefined ? undefined : decodeCursor(cursor),
          active,
          contentType,
          status,
          q,
          tag: tag === undefined ? undefined : normalizeTag(tag),
        },
        sparklineTz: include === 'sparkline' ? zone : undefined,
      });
      const last = page.items.at(-1);
      const after = page.resumeAfter ?? (last ? { createdAt: last.createdAt, id: last.id } : undefined);
      return {
        items: page.items.map(view),
        nextCursor: page.more && after ? encodeCursor(after) : null,
        ...(page.sparklines === undefined ? {} : { sparklines: page.sparklines }),
      };
    },
  );

  app.get(
    '/qr/:id',
    {
      config: { scope: 'qr:read' },
      schema: {
        operationId: 'getQr',
        summary: 'Read one QR code',
        tags: ['qr'],
        params: IdParams,
        response: { 200: ItemResponse, ...authErrors, 404: notFoundAnswer },
      },
    },
    async (req) => {
      const item = await items.find(accountOf(req), req.params.id);
      if (!item) throw new NotFoundError('QR item not found');
      return { item: view(item) };
    },
  );

  app.patch(
    '/qr/:id',
    {
      config: { scope: 'qr:write' },
      schema: {
        operationId: 'updateQr',
        summary: 'Update, pause (active: false) or resume (active: true) a QR code',
        tags: ['qr'],
        params: IdParams,
        body: UpdateQrBody,
        response: { 200: ItemWithWarningsResponse, ...authErrors, 404: notFoundAnswer, ...bodyErrors, 503: renderBusyAnswer },
      },
    },
    async (req) => {
      const account = accountOf(req);
      // A missing id is a 404 before any logo of the body is parsed in the render pool.
      if (!(await items.find(account, req.params.id))) throw new NotFoundError('QR item not found');
      const body: QrItemRequest = req.body;
      const logos = await parseLogosOf(body, parseLogoFor(account));
      const secrets = await passwordOf(body);
      const domainId = await domainForChange(services.domains, account, body.domain);
      // The item is read again, locked, after the logo check: changes sent at once to one
      // code each land on what the others wrote (a design merge must not undo another's).
      const updated = await inTransaction(services.db, async (tx) => {
        const repo = new QrItemsRepository(tx);
        const current = await repo.find(account, req.params.id, true);
        if (!current) return null;
        const changes = planUpdate(current, body, planContext(services), logos, secrets);
        if (domainId !== undefined && domainId !== current.domainId) changes.domainId = domainId;
        return Object.keys(changes).length === 0 ? current : await repo.update(account, current.id, changes);
      });
      if (!updated) throw new NotFoundError('QR item not found');
      await onItemsChanged([updated.code]);
      const shown = view(updated);
      return {
        item: shown,
        warnings: [...requestWarnings(body, updated.contentType), ...(await warningsFor(updated.design, shown.shortUrl))],
      };
    },
  );

  app.delete(
    '/qr/:id',
    {
      config: { scope: 'qr:write' },
      schema: {
        operationId: 'deleteQr',
        summary: 'Delete a QR code; its short link then answers 410 and its code is never reused',
        tags: ['qr'],
        params: IdParams,
        response: { 200: OkResponse, ...authErrors, 404: notFoundAnswer },
      },
    },
    async (req) => {
      const account = accountOf(req);
      const current = await items.find(account, req.params.id);
      if (!current || !(await items.softDelete(account, current.id))) throw new NotFoundError('QR item not found');
      await onItemsChanged([current.code]);
      return { ok: true };
    },
  );
};
