// Everything the web app needs beyond the QR routes, registered together under /v1.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppServices } from '../../services.ts';
import { accountRoutes } from './account.ts';
import { onboardingRoutes } from './onboarding.ts';
import { domainRoutes } from './domains.ts';
import { publicAddressRoutes } from './public-address.ts';
import { sessionRoutes } from './session.ts';

export const webAccountRoutes: FastifyPluginAsyncTypebox<{ services: AppServices }> = async (app, { services }) => {
  await app.register(sessionRoutes, { services });
  await app.register(onboardingRoutes, { services });
  await app.register(accountRoutes, { services });
  await app.register(domainRoutes, { services });
  await app.register(publicAddressRoutes, { services });
};
