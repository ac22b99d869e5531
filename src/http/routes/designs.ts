// Saved designs ("templates") of the account: list, create, read, update, delete. Designs are
// checked like a code's (colours, logo sanitized in the render pool); answers carry every option.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DesignsRepository } from '../../db/designs-repository.ts';
import { type DesignPatch, LIMITS, resolveDesign } from '../../domain/design/design.ts';
import { type ParseLogo, parseLogosOf } from '../../domain/design/request-logos.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import { decodeCursor, encodeCursor } from '../../domain/qr-items/list-cursor.ts';
import { designPatchOf } from '../../domain/qr-items/qr-item.ts';
import { checkDesignName, DESIGNS_PER_ACCOUNT, type SavedDesignRecord } from '../../domain/saved-design.ts';
import type { AppServices } from '../../services.ts';
import { accountOf } from '../auth/api-key-auth.ts';
import { CreateDesignBody, DesignListQuery, SavedDesignList, SavedDesignResponse, UpdateDesignBody } from '../schemas/designs.ts';
import { IdParams, OkResponse, authErrors, bodyErrors, errorAnswer, renderBusyAnswer } from '../schemas/common.ts';

const notFoundAnswer = errorAnswer('No such design in this account');

export const designRoutes: FastifyPluginAsyncTypebox<{ services: AppServices }> = async (app, { services }) => {
  const designs = new DesignsRepository(services.db);
  const view = (d: SavedDesignRecord) => ({ design: d });
  // As for codes: a logo is sanitized off the event loop and tried at the largest size it can be drawn.
  const parseLogoFor =
    (account: string): ParseLogo =>
    (field, logo) =>
      services.renderer.parseLogo(field, logo, LIMITS.resolution.max, { account, lane: 'interactive' });
  const patchOf = async (design: DesignPatch, account: string): Promise<DesignPatch> =>
    designPatchOf({ design }, await parseLogosOf({ design }, parseLogoFor(account)));

  app.get(
    '/designs',
    {
      config: { scope: 'qr:read' },
      schema: {
        operationId: 'listDesigns',
        summary: 'List the saved designs of the account, newest first (a page holds at most 4 MiB of designs)',
        tags: ['designs'],
        querystring: DesignListQuery,
        response: { 200: SavedDesignList, ...authErrors },
      },
    },
    async (req) => {
      const page = await designs.list(accountOf(req), req.query.cursor === undefined ? undefined : decodeCursor(req.query.cursor));
      const last = page.designs.at(-1);
      return { designs: page.designs, nextCursor: page.more && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null };
    },
  );

  app.post(
    '/designs',
    {
      config: { scope: 'qr:write' },
      schema: {
        operationId: 'createDesign',
        summary: `Save a design under a name (at most ${DESIGNS_PER_ACCOUNT} per account); options not given take their defaults`,
        tags: ['designs'],
        body: CreateDesignBody,
        response: { 201: SavedDesignResponse, ...authErrors, ...bodyErrors, 503: renderBusyAnswer },
      },
    },
    async (req, reply) => {
      const account = accountOf(req);
      const name = checkDesignName(req.body.name);
      const design = resolveDesign(undefined, await patchOf(req.body.design, account));
      const saved = await designs.create(account, name, design, DESIGNS_PER_ACCOUNT);
      if (!saved) throw new ValidationError(`designs: an account may save at most ${DESIGNS_PER_ACCOUNT} designs; delete one first`);
      return reply.code(201).send(view(saved));
    },
  );

  app.get(
    '/designs/:id',
    {
      config: { scope: 'qr:read' },
      schema: {
        operationId: 'getDesign',
        summary: 'Read one saved design',
        tags: ['designs'],
        params: IdParams,
        response: { 200: SavedDesignResponse, ...authErrors, 404: notFoundAnswer },
      },
    },
    async (req) => {
      const found = await designs.find(accountOf(req), req.params.id);
      if (!found) throw new NotFoundError('design not found');
      return view(found);
    },
  );

  app.patch(
    '/designs/:id',
    {
      config: { scope: 'qr:write' },
      schema: {
        operationId: 'updateDesign',
        summary: 'Rename a saved design or change its options (given options merge into the stored ones)',
        tags: ['designs'],
        params: IdParams,
        body: UpdateDesignBody,
        response: { 200: SavedDesignResponse, ...authErrors, 404: notFoundAnswer, ...bodyErrors, 503: renderBusyAnswer },
      },
    },
    async (req) => {
      const account = accountOf(req);
      // A missing id is a 404 before any logo of the body is parsed in the render pool.
      if (!(await designs.find(account, req.params.id))) throw new NotFoundError('design not found');
      const name = req.body.name === undefined ? undefined : checkDesignName(req.body.name);
      const patch = req.body.design === undefined ? undefined : await patchOf(req.body.design, account);
      // Merged into the design as stored when written, not as read before the logo check.
      const updated = await designs.update(account, req.params.id, (current) => ({
        name,
        design: patch === undefined ? undefined : resolveDesign(current.design, patch),
      }));
      if (!updated) throw new NotFoundError('design not found');
      return view(updated);
    },
  );

  app.delete(
    '/designs/:id',
    {
      config: { scope: 'qr:write' },
      schema: {
        operationId: 'deleteDesign',
        summary: 'Delete a saved design (codes made from it keep their design)',
        tags: ['designs'],
        params: IdParams,
        response: { 200: OkResponse, ...authErrors, 404: notFoundAnswer },
      },
    },
    async (req) => {
      if (!(await designs.remove(accountOf(req), req.params.id))) throw new NotFoundError('design not found');
      return { ok: true };
    },
  );
};
