// The instance's public address, changed by an owner of the instance (an owner of the account
// made at first run). Codes printed with the old address keep it: that address goes on answering.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { parsePublicAddress } from '../../domain/domains/public-address.ts';
import { ForbiddenError } from '../../domain/errors.ts';
import type { AppServices } from '../../services.ts';
import { memberOf } from '../auth/session-auth.ts';
import { ErrorResponse, authErrors } from '../schemas/common.ts';
import { PublicAddressBody, PublicAddressResponse } from '../schemas/domains.ts';

export const publicAddressRoutes: FastifyPluginAsyncTypebox<{ services: AppServices }> = async (app, { services }) => {
  app.put(
    '/instance/public-address',
    {
      config: { session: 'user' },
      schema: {
        summary:
          "Change the instance's public address (an owner of the account made at first run); printed codes keep the old one, which goes on answering",
        tags: ['onboarding'],
        body: PublicAddressBody,
        response: { 200: PublicAddressResponse, ...authErrors, 409: ErrorResponse },
      },
    },
    async (req) => {
      const account = await services.instanceSettings.instanceAccount();
      const role = account === null ? null : await services.members.roleOf(account, memberOf(req).userId);
      if (role !== 'owner')
        throw new ForbiddenError('role: only an owner of the instance (of the account made at first run) can change its address');
      await services.addresses.changePublicUrl(parsePublicAddress(req.body.publicBaseUrl));
      return { publicAddress: services.addresses.publicAddress() };
    },
  );
};
