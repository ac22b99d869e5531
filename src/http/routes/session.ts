// Signing in and out, the current session, switching account, changing the password.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { checkPasswordRule, hashPassword, verifyPassword } from '../../domain/accounts/password.ts';
import { scopesOfRole } from '../../domain/accounts/roles.ts';
import { csrfTokenFor } from '../../domain/accounts/session-policy.ts';
import { ForbiddenError, ValidationError } from '../../domain/errors.ts';
import type { AppServices } from '../../services.ts';
import { ChangePasswordBody, SessionResponse, SignInBody, SwitchAccountBody } from '../schemas/account.ts';
import { ErrorResponse, OkResponse, authErrors } from '../schemas/common.ts';
import { clearSessionCookie, crossSiteRefusal, memberOf, publicOf, startSession } from '../auth/session-auth.ts';
import { attemptKeys, rememberDevice } from '../auth/trusted-device.ts';

const tags = ['session'];

export const sessionRoutes: FastifyPluginAsyncTypebox<{ services: AppServices }> = async (app, { services }) => {
  const { users, members, sessions, signInLimiter } = services;

  app.get(
    '/session',
    {
      config: { session: 'user' },
      schema: {
        summary: 'The signed-in user, their account and role, and the CSRF token',
        tags,
        response: { 200: SessionResponse, ...authErrors },
      },
    },
    async (req) => sessionView(services, req.auth?.accountId ?? '', memberOf(req).userId, memberOf(req).csrfToken),
  );

  app.post(
    '/session',
    {
      schema: {
        summary: 'Sign in with email and password (sets the session cookie)',
        tags,
        security: [],
        body: SignInBody,
        response: { 200: SessionResponse, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 429: ErrorResponse },
      },
    },
    async (req, reply) => {
      refuseCrossSite(req, services);
      const email = req.body.email.trim().toLowerCase();
      const user = await users.findByEmail(email);
      const keys = await attemptKeys(req, services, email, user?.id ?? null);
      const attempt = await signInLimiter.admit(keys.address, keys.email);
      if (attempt.wait > 0)
        return reply
          .code(429)
          .header('Retry-After', String(attempt.wait))
          .send({ error: `too many failed sign-ins: try again in ${attempt.wait} s` });
      let failed = true;
      try {
        const ok = await verifyPassword(user?.passwordHash ?? null, req.body.password);
        const accounts = ok && user ? await members.accountsOf(user.id) : [];
        const first = accounts[0];
        if (!ok || !user || first === undefined) return reply.code(401).send({ error: 'password: email or password is wrong' });
        failed = false;
        const token = await startSession(reply, services, user.id, first.accountId);
        await rememberDevice(req, reply, services, user.id);
        return sessionView(services, first.accountId, user.id, csrfTokenFor(token));
      } finally {
        await attempt.done(failed);
      }
    },
  );

  app.delete(
    '/session',
    {
      config: { session: 'user' },
      schema: { summary: 'Sign out (ends this session)', tags, response: { 200: OkResponse, ...authErrors } },
    },
    async (req, reply) => {
      await sessions.delete(memberOf(req).sessionHash);
      clearSessionCookie(reply, publicOf(services));
      return { ok: true };
    },
  );

  app.delete(
    '/sessions',
    {
      config: { session: 'user' },
      schema: { summary: 'Sign out everywhere (ends every session of this user)', tags, response: { 200: OkResponse, ...authErrors } },
    },
    async (req, reply) => {
      await sessions.deleteAllOf(memberOf(req).userId);
      clearSessionCookie(reply, publicOf(services));
      return { ok: true };
    },
  );

  app.put(
    '/session/account',
    {
      config: { session: 'user' },
      schema: {
        summary: 'Switch the session to another account of the user',
        tags,
        body: SwitchAccountBody,
        response: { 200: SessionResponse, ...authErrors, 404: ErrorResponse },
      },
    },
    async (req, reply) => {
      const member = memberOf(req);
      if ((await members.roleOf(req.body.accountId, member.userId)) === null)
        return reply.code(404).send({ error: 'accountId: you are not a member of this account' });
      await sessions.switchAccount(member.sessionHash, req.body.accountId);
      return sessionView(services, req.body.accountId, member.userId, member.csrfToken);
    },
  );

  app.put(
    '/me/password',
    {
      config: { session: 'user' },
      schema: {
        summary: 'Change the signed-in user’s password (ends their other sessions)',
        tags,
        body: ChangePasswordBody,
        response: { 200: OkResponse, ...authErrors, 429: ErrorResponse },
      },
    },
    async (req, reply) => {
      const member = memberOf(req);
      const user = await users.findById(member.userId);
      if (!user) throw new ValidationError('currentPassword: is wrong');
      // The sign-in limits count here too: a stolen session must not become a way to guess
      // the password at the request rate.
      const keys = await attemptKeys(req, services, user.email, user.id);
      const attempt = await signInLimiter.admit(keys.address, keys.email);
      if (attempt.wait > 0)
        return reply
          .code(429)
          .header('Retry-After', String(attempt.wait))
          .send({ error: `too many wrong passwords: try again in ${attempt.wait} s` });
      let right = false;
      try {
        right = await verifyPassword(user.passwordHash, req.body.currentPassword);
      } finally {
        await attempt.done(!right);
      }
      if (!right) throw new ValidationError('currentPassword: is wrong');
      checkPasswordRule(req.body.newPassword, 'newPassword');
      await users.setPassword(member.userId, await hashPassword(req.body.newPassword), member.sessionHash);
      return { ok: true };
    },
  );
};

/** The session answer every sign-in path gives. */
export async function sessionView(services: AppServices, accountId: string, userId: string, csrfToken: string) {
  const [user, accounts] = await Promise.all([services.users.findById(userId), services.members.accountsOf(userId)]);
  const current = accounts.find((a) => a.accountId === accountId);
  if (!user || !current) throw new Error('session without user or membership');
  return {
    user: { id: user.id, email: user.email },
    account: { id: current.accountId, name: current.accountName, role: current.role },
    scopes: scopesOfRole(current.role),
    accounts: accounts.map((a) => ({ id: a.accountId, name: a.accountName, role: a.role })),
    csrfToken,
  };
}

export function refuseCrossSite(req: FastifyRequest, services: AppServices): void {
  const refusal = crossSiteRefusal(req, publicOf(services));
  if (refusal !== null) throw new ForbiddenError(refusal);
}

export async function signInAs(req: FastifyRequest, reply: FastifyReply, services: AppServices, userId: string, accountId: string) {
  const token = await startSession(reply, services, userId, accountId);
  await rememberDevice(req, reply, services, userId);
  return sessionView(services, accountId, userId, csrfTokenFor(token));
}
