// The public ways in: the first-run setup link, open sign-up, invite links and
// password-reset links. Each sets a session cookie when it lets someone in.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { normaliseAccountName, normaliseEmail } from '../../domain/accounts/identity.ts';
import { checkPasswordRule, hashPassword, verifyPassword } from '../../domain/accounts/password.ts';
import { hashSecretToken } from '../../domain/accounts/secret-token.ts';
import { SIGNUPS_PER_HOUR } from '../../domain/accounts/attempt-limiter.ts';
import { addressKey } from '../../domain/address-key.ts';
import { ForbiddenError } from '../../domain/errors.ts';
import { parsePublicAddress } from '../../domain/domains/public-address.ts';
import { SETUP_ACCOUNT_KEY } from '../../db/domains/instance-settings-repository.ts';
import type { AppServices } from '../../services.ts';
import {
  AcceptInviteBody,
  InstanceResponse,
  InvitePreviewResponse,
  ResetPasswordBody,
  ResetPreviewResponse,
  SessionResponse,
  SetupBody,
  SignUpBody,
  TokenParams,
} from '../schemas/account.ts';
import { ErrorResponse, OkResponse } from '../schemas/common.ts';
import { refuseCrossSite, signInAs } from './session.ts';
import { attemptKeys } from '../auth/trusted-device.ts';

export { SIGNUPS_PER_HOUR };

const tags = ['onboarding'];
const publicErrors = {
  400: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
  410: ErrorResponse,
  429: ErrorResponse,
};

export const onboardingRoutes: FastifyPluginAsyncTypebox<{ services: AppServices }> = async (app, { services }) => {
  const { users, keys, oneTimeLinks, onboarding, signInLimiter, signUpLimiter, config } = services;
  const now = () => new Date().toISOString();

  app.get(
    '/instance',
    {
      schema: {
        summary: 'Whether this instance still needs its first-run setup, and its sign-up mode',
        tags,
        security: [],
        response: { 200: InstanceResponse, 429: ErrorResponse },
      },
    },
    async () => ({ setupRequired: !(await users.any()), signup: config.signup, publicAddress: services.addresses.publicAddress() }),
  );

  app.get(
    '/setup/:token',
    {
      schema: {
        summary: 'Check a first-run setup link',
        tags,
        security: [],
        params: TokenParams,
        response: { 200: OkResponse, ...publicErrors },
      },
    },
    async (req) => {
      await oneTimeLinks.usable('setup', hashSecretToken(req.params.token), now());
      return { ok: true };
    },
  );

  app.post(
    '/setup',
    {
      schema: {
        summary: 'First run: create the owner and their account with the setup link (works once)',
        tags,
        security: [],
        body: SetupBody,
        response: { 201: SessionResponse, ...publicErrors },
      },
    },
    async (req, reply) => {
      refuseCrossSite(req, services);
      const accountName = normaliseAccountName(req.body.accountName);
      const email = normaliseEmail(req.body.email);
      checkPasswordRule(req.body.password);
      const address = req.body.publicBaseUrl === undefined ? null : parsePublicAddress(req.body.publicBaseUrl);
      const tokenHash = hashSecretToken(req.body.token);
      await oneTimeLinks.usable('setup', tokenHash, now()); // fail fast, before the costly hash
      const joined = await onboarding.completeSetup(tokenHash, {
        accountName,
        email,
        passwordHash: await hashPassword(req.body.password),
        now: now(),
      });
      await services.instanceSettings.set(SETUP_ACCOUNT_KEY, joined.accountId);
      // PUBLIC_BASE_URL wins over what the page sends (the page does not ask then).
      if (address !== null && !config.publicBaseUrlFromEnv) await services.addresses.changePublicUrl(address);
      return reply.code(201).send(await signInAs(req, reply, services, joined.userId, joined.accountId));
    },
  );

  app.post(
    '/signup',
    {
      schema: {
        summary: 'Create an account and its owner (only when SIGNUP=open)',
        tags,
        security: [],
        body: SignUpBody,
        response: { 201: SessionResponse, ...publicErrors },
      },
    },
    async (req, reply) => {
      refuseCrossSite(req, services);
      if (config.signup !== 'open')
        throw new ForbiddenError('signup: this instance is by invitation only; ask an account owner for an invite link');
      // Each sign-up makes an account: a few an hour per address. Only those that made one
      // count (a typo or a taken name locked a person out for an hour); running ones count too.
      const address = addressKey(req.ip);
      const attempt = await signUpLimiter.admit(address, address);
      if (attempt.wait > 0) {
        return reply
          .code(429)
          .header('Retry-After', String(attempt.wait))
          .send({
            error: `too many sign-ups from this address: ${SIGNUPS_PER_HOUR} an hour; try again in ${Math.ceil(attempt.wait / 60)} min`,
          });
      }
      let created = false;
      try {
        const accountName = normaliseAccountName(req.body.accountName);
        const email = normaliseEmail(req.body.email);
        checkPasswordRule(req.body.password);
        const joined = await onboarding.signUp({ accountName, email, passwordHash: await hashPassword(req.body.password), now: now() });
        created = true;
        return reply.code(201).send(await signInAs(req, reply, services, joined.userId, joined.accountId));
      } finally {
        await attempt.done(created); // "failed" in the limiter's words: counted
      }
    },
  );

  app.get(
    '/invites/:token',
    {
      schema: {
        summary: 'What an invite link invites to',
        tags,
        security: [],
        params: TokenParams,
        response: { 200: InvitePreviewResponse, ...publicErrors },
      },
    },
    async (req) => {
      const link = await oneTimeLinks.usable('invite', hashSecretToken(req.params.token), now());
      const account = await keys.findAccount(link.accountId ?? '');
      return {
        accountName: account?.name ?? '',
        role: link.role ?? 'viewer',
        expiresAt: link.expiresAt ?? link.createdAt,
        email: link.email,
      };
    },
  );

  app.post(
    '/invites/:token/accept',
    {
      schema: {
        summary: 'Accept an invite: a new user sets a password; an existing user gives theirs (works once)',
        tags,
        security: [],
        params: TokenParams,
        body: AcceptInviteBody,
        response: { 201: SessionResponse, ...publicErrors, 401: ErrorResponse },
      },
    },
    async (req, reply) => {
      refuseCrossSite(req, services);
      const email = normaliseEmail(req.body.email);
      const tokenHash = hashSecretToken(req.params.token);
      await oneTimeLinks.usable('invite', tokenHash, now());
      const existing = await users.findByEmail(email);
      let joined: Awaited<ReturnType<typeof onboarding.acceptInvite>>;
      if (existing) {
        const keys = await attemptKeys(req, services, email, existing.id);
        const attempt = await signInLimiter.admit(keys.address, keys.email);
        if (attempt.wait > 0)
          return reply
            .code(429)
            .header('Retry-After', String(attempt.wait))
            .send({ error: `too many failed sign-ins: try again in ${attempt.wait} s` });
        let right = false;
        try {
          right = await verifyPassword(existing.passwordHash, req.body.password);
        } finally {
          await attempt.done(!right);
        }
        if (!right) return reply.code(401).send({ error: 'password: this email already has a user here; give its password to join' });
        joined = await onboarding.acceptInvite(tokenHash, { existingUserId: existing.id }, now());
      } else {
        checkPasswordRule(req.body.password);
        joined = await onboarding.acceptInvite(tokenHash, { email, passwordHash: await hashPassword(req.body.password) }, now());
      }
      return reply.code(201).send(await signInAs(req, reply, services, joined.userId, joined.accountId));
    },
  );

  app.get(
    '/password-resets/:token',
    {
      schema: {
        summary: 'Whose password a reset link sets',
        tags,
        security: [],
        params: TokenParams,
        response: { 200: ResetPreviewResponse, ...publicErrors },
      },
    },
    async (req) => {
      const link = await oneTimeLinks.usable('reset', hashSecretToken(req.params.token), now());
      const user = await users.findById(link.userId ?? '');
      return { email: user?.email ?? '', expiresAt: link.expiresAt ?? link.createdAt };
    },
  );

  app.post(
    '/password-resets/:token',
    {
      schema: {
        summary: 'Set a new password with a reset link (works once; ends every session of the user)',
        tags,
        security: [],
        params: TokenParams,
        body: ResetPasswordBody,
        response: { 200: OkResponse, ...publicErrors },
      },
    },
    async (req) => {
      refuseCrossSite(req, services);
      checkPasswordRule(req.body.password);
      const tokenHash = hashSecretToken(req.params.token);
      await oneTimeLinks.usable('reset', tokenHash, now());
      await onboarding.resetPassword(tokenHash, await hashPassword(req.body.password), now());
      return { ok: true };
    },
  );
};
