// Tags of an account: list with counts, rename and delete (on every code at once).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { TagsRepository } from '../../db/qr-items/tags-repository.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { normalizeTag } from '../../domain/qr-items/tags.ts';
import type { AppServices } from '../../services.ts';
import { accountOf } from '../auth/api-key-auth.ts';
import { ErrorResponse, OkResponse, authErrors } from '../schemas/common.ts';
import { RenameTagBody, TagListResponse, TagParams } from '../schemas/tags.ts';

export const tagRoutes: FastifyPluginAsyncTypebox<{ services: AppServices }> = async (app, { services }) => {
  const tags = new TagsRepository(services.db);

  app.get(
    '/tags',
    {
      config: { scope: 'qr:read' },
      schema: {
        summary: 'List the tags of the account with their number of codes',
        tags: ['tags'],
        response: { 200: TagListResponse, ...authErrors },
      },
    },
    async (req) => ({ tags: await tags.list(accountOf(req)) }),
  );

  app.patch(
    '/tags/:name',
    {
      config: { scope: 'qr:write' },
      schema: {
        summary: 'Rename a tag on every code that has it',
        tags: ['tags'],
        params: TagParams,
        body: RenameTagBody,
        response: { 200: OkResponse, ...authErrors, 404: ErrorResponse, 415: ErrorResponse },
      },
    },
    async (req) => {
      const from = normalizeTag(req.params.name, 'name');
      const to = normalizeTag(req.body.name, 'name');
      if (!(await tags.rename(accountOf(req), from, to))) throw new NotFoundError('tag not found');
      return { ok: true };
    },
  );

  app.delete(
    '/tags/:name',
    {
      config: { scope: 'qr:write' },
      schema: {
        summary: 'Take a tag off every code (the codes stay)',
        tags: ['tags'],
        params: TagParams,
        response: { 200: OkResponse, ...authErrors, 404: ErrorResponse },
      },
    },
    async (req) => {
      if (!(await tags.remove(accountOf(req), normalizeTag(req.params.name, 'name')))) throw new NotFoundError('tag not found');
      return { ok: true };
    },
  );
};
