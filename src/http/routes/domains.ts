// Custom domains of the account (Account → Domains): owners only, with a session. A domain is
// claimed (pending), verified by its TXT record (active), and then serves the codes put on it.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DOMAINS_PER_ACCOUNT, checkRedirectUrl, newVerificationValue, normaliseHostname } from '../../domain/domains/domain.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import type { DomainSettings } from '../../db/domains/domains-repository.ts';
import type { AppServices } from '../../services.ts';
import { accountOf } from '../auth/api-key-auth.ts';
import { ErrorResponse, IdParams, OkResponse, authErrors } from '../schemas/common.ts';
import { CreateDomainBody, DomainResponse, DomainsResponse, UpdateDomainBody } from '../schemas/domains.ts';

const tags = ['domains'];
const errors = { ...authErrors, 404: ErrorResponse, 409: ErrorResponse };

export const domainRoutes: FastifyPluginAsyncTypebox<{ services: AppServices }> = async (app, { services }) => {
  const { domains, addresses, domainChecker } = services;
  const found = async (accountId: string, id: string) => {
    const domain = await domains.find(accountId, id);
    if (!domain) throw new NotFoundError('domain not found');
    return domain;
  };

  app.get(
    '/domains',
    {
      config: { session: 'owner' },
      schema: { summary: "The account's custom domains", tags, response: { 200: DomainsResponse, ...authErrors } },
    },
    async (req) => ({ domains: await domains.list(accountOf(req)) }),
  );

  app.post(
    '/domains',
    {
      config: { session: 'owner' },
      schema: {
        summary: 'Add a custom domain; create the TXT record it answers with, then verify it',
        tags,
        body: CreateDomainBody,
        response: { 201: DomainResponse, ...errors },
      },
    },
    async (req, reply) => {
      const accountId = accountOf(req);
      const hostname = normaliseHostname(req.body.hostname);
      if (addresses.isInstanceHost(hostname)) throw new ValidationError(`hostname: ${hostname} is this instance's own address`);
      if ((await domains.count(accountId)) >= DOMAINS_PER_ACCOUNT)
        throw new ConflictError(`hostname: an account holds at most ${DOMAINS_PER_ACCOUNT} domains; delete one first`);
      const domain = await domains.create(accountId, hostname, newVerificationValue());
      await addresses.refresh();
      return reply.code(201).send({ domain });
    },
  );

  app.get(
    '/domains/:id',
    {
      config: { session: 'owner' },
      schema: { summary: 'One custom domain', tags, params: IdParams, response: { 200: DomainResponse, ...errors } },
    },
    async (req) => ({ domain: await found(accountOf(req), req.params.id) }),
  );

  app.patch(
    '/domains/:id',
    {
      config: { session: 'owner' },
      schema: {
        summary: "Change a domain's settings: the account's default, its fallback URL and its root redirect",
        tags,
        params: IdParams,
        body: UpdateDomainBody,
        response: { 200: DomainResponse, ...errors },
      },
    },
    async (req) => {
      const accountId = accountOf(req);
      const current = await found(accountId, req.params.id);
      const { isDefault, fallbackUrl, rootRedirect } = req.body;
      const settings: DomainSettings = { isDefault };
      if (fallbackUrl !== undefined)
        settings.fallbackUrl = fallbackUrl === null ? null : checkRedirectUrl(fallbackUrl, 'fallbackUrl', current.hostname);
      if (rootRedirect !== undefined)
        settings.rootRedirect = rootRedirect === null ? null : checkRedirectUrl(rootRedirect, 'rootRedirect', current.hostname);
      const domain = await domains.update(accountId, current.id, settings);
      if (!domain) throw new NotFoundError('domain not found');
      await addresses.refresh();
      return { domain };
    },
  );

  app.post(
    '/domains/:id/verify',
    {
      config: { session: 'owner' },
      schema: {
        summary: 'Look up the domain’s TXT record now (the server also checks on a timer)',
        tags,
        params: IdParams,
        response: { 200: DomainResponse, ...errors },
      },
    },
    async (req) => {
      const accountId = accountOf(req);
      const info = await domains.checkInfo(accountId, req.params.id);
      if (!info) throw new NotFoundError('domain not found');
      await domainChecker.check(info);
      return { domain: await found(accountId, info.id) };
    },
  );

  app.delete(
    '/domains/:id',
    {
      config: { session: 'owner' },
      schema: {
        summary: 'Remove a domain no live code uses; its host then answers 404',
        tags,
        params: IdParams,
        response: { 200: OkResponse, ...errors },
      },
    },
    async (req) => {
      const accountId = accountOf(req);
      const domain = await found(accountId, req.params.id);
      const live = await domains.liveCodes(domain.id);
      if (live > 0)
        throw new ConflictError(
          `domain: ${live} live code${live === 1 ? '' : 's'} use${live === 1 ? 's' : ''} ${domain.hostname}; their printed links would stop working. Move them to another domain or delete them first`,
        );
      await domains.delete(accountId, domain.id);
      await addresses.refresh();
      return { ok: true };
    },
  );
};
