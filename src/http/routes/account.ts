// The account area: members and their roles, invites, reset links and API keys.
// Session-only: an API key can never mint keys or change who is a member.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { oneTimeLinkUrl } from '../../domain/accounts/links.ts';
import { resetLinkRefusal } from '../../domain/accounts/roles.ts';
import { newSecretToken, hashSecretToken } from '../../domain/accounts/secret-token.ts';
import { INVITE_TTL_MS, RESET_TTL_MS } from '../../domain/accounts/session-policy.ts';
import { generateApiKey } from '../../domain/accounts/api-key.ts';
import { ROTATION_GRACE_DEFAULT_SECONDS, checkKeyExpiry, keyStatus } from '../../domain/accounts/key-lifecycle.ts';
import type { ApiKeyRecord } from '../../db/accounts/api-keys-repository.ts';
import { ConflictError, ForbiddenError, NotFoundError } from '../../domain/errors.ts';
import { ACTIVE_KEYS_PER_ACCOUNT, OPEN_INVITES_PER_ACCOUNT } from '../../domain/accounts/account-limits.ts';
import type { AppServices } from '../../services.ts';
import {
  AccountResponse,
  UpdateAccountBody,
  ApiKeysResponse,
  ChangeRoleBody,
  CreateInviteBody,
  CreateKeyBody,
  CreatedInviteResponse,
  CreatedKeyResponse,
  InviteIdParams,
  InvitesResponse,
  KeyIdParams,
  LinkResponse,
  RotateKeyBody,
  RotatedKeyResponse,
  MemberResponse,
  MembersResponse,
  RemoveMemberQuery,
  UserIdParams,
} from '../schemas/account.ts';
import { ErrorResponse, OkResponse, authErrors } from '../schemas/common.ts';
import { accountOf } from '../auth/api-key-auth.ts';
import { memberOf } from '../auth/session-auth.ts';

const errors = { ...authErrors, 404: ErrorResponse, 409: ErrorResponse };

const SELF_RESET_REFUSAL =
  'userId: you cannot make a reset link for yourself; change your password under Account → Profile → Change password (PUT /v1/me/password), which asks for the current one';

export const accountRoutes: FastifyPluginAsyncTypebox<{ services: AppServices }> = async (app, { services }) => {
  const { keys, members, oneTimeLinks } = services;

  app.get(
    '/account',
    {
      config: { session: 'member' },
      schema: {
        summary: 'The session’s account and the member’s role',
        tags: ['account'],
        response: { 200: AccountResponse, ...authErrors },
      },
    },
    async (req) => {
      const account = await keys.findAccount(accountOf(req));
      if (!account) throw new NotFoundError('account not found');
      return { account, role: memberOf(req).role };
    },
  );

  app.patch(
    '/account',
    {
      config: { session: 'owner' },
      schema: {
        summary: 'Change the account’s settings: how long raw scans are kept (scanRetentionDays)',
        tags: ['account'],
        body: UpdateAccountBody,
        response: { 200: AccountResponse, ...errors },
      },
    },
    async (req) => {
      await keys.setScanRetention(accountOf(req), req.body.scanRetentionDays);
      const account = await keys.findAccount(accountOf(req));
      if (!account) throw new NotFoundError('account not found');
      return { account, role: memberOf(req).role };
    },
  );

  app.get(
    '/account/members',
    {
      config: { session: 'member' },
      schema: { summary: 'Members of the account', tags: ['members'], response: { 200: MembersResponse, ...authErrors } },
    },
    async (req) => ({ members: await members.list(accountOf(req)) }),
  );

  app.patch(
    '/account/members/:userId',
    {
      config: { session: 'owner' },
      schema: {
        summary: 'Change a member’s role (the last owner stays owner)',
        tags: ['members'],
        params: UserIdParams,
        body: ChangeRoleBody,
        response: { 200: MemberResponse, ...errors },
      },
    },
    async (req) => {
      const accountId = accountOf(req);
      await members.changeRole(accountId, req.params.userId, req.body.role);
      const member = (await members.list(accountId)).find((m) => m.userId === req.params.userId);
      if (!member) throw new NotFoundError('member not found');
      return { member };
    },
  );

  app.delete(
    '/account/members/:userId',
    {
      config: { session: 'owner' },
      schema: {
        summary:
          'Remove a member (the last owner cannot be removed); ends their sessions here and revokes the API keys they made (keepKeys=true keeps them)',
        tags: ['members'],
        params: UserIdParams,
        querystring: RemoveMemberQuery,
        response: { 200: OkResponse, ...errors },
      },
    },
    async (req) => {
      await members.remove(accountOf(req), req.params.userId, { revokeKeys: req.query.keepKeys !== true });
      return { ok: true };
    },
  );

  app.post(
    '/account/members/:userId/reset-link',
    {
      config: { session: 'owner' },
      schema: {
        summary: 'Make a one-time password-reset link for another member (valid 24 h; for yourself: PUT /v1/me/password)',
        tags: ['members'],
        params: UserIdParams,
        response: { 201: LinkResponse, ...errors },
      },
    },
    async (req, reply) => {
      const accountId = accountOf(req);
      if ((await members.roleOf(accountId, req.params.userId)) === null) throw new NotFoundError('member not found');
      const callerId = memberOf(req).userId;
      // A session alone must not set its user's password: that needs the current one, or a
      // stolen session would keep the account (and the reset would sign the owner out).
      if (req.params.userId === callerId) throw new ForbiddenError(SELF_RESET_REFUSAL);
      const [theirs, mine] = await Promise.all([members.accountsOf(req.params.userId), members.accountsOf(callerId)]);
      const owned = new Set(mine.filter((m) => m.role === 'owner').map((m) => m.accountId));
      const refusal = resetLinkRefusal(
        theirs.map((m) => m.accountId),
        owned,
      );
      if (refusal) throw new ForbiddenError(refusal);
      const token = newSecretToken();
      const now = Date.now();
      const expiresAt = new Date(now + RESET_TTL_MS).toISOString();
      await oneTimeLinks.create({
        tokenHash: hashSecretToken(token),
        kind: 'reset',
        userId: req.params.userId,
        accountId,
        createdBy: callerId,
        now: new Date(now).toISOString(),
        expiresAt,
      });
      return reply.code(201).send({ url: oneTimeLinkUrl(services.addresses.publicUrl(), 'reset', token), expiresAt });
    },
  );

  app.get(
    '/account/invites',
    {
      config: { session: 'owner' },
      schema: { summary: 'Open invites of the account', tags: ['members'], response: { 200: InvitesResponse, ...authErrors } },
    },
    async (req) => {
      const list = await oneTimeLinks.openInvites(accountOf(req), new Date().toISOString());
      return { invites: list.map(({ id, role, email, createdAt, expiresAt }) => ({ id, role, email, createdAt, expiresAt })) };
    },
  );

  app.post(
    '/account/invites',
    {
      config: { session: 'owner' },
      schema: {
        summary: `Make a one-time invite link with a role (valid 7 days; at most ${OPEN_INVITES_PER_ACCOUNT} open invites an account)`,
        tags: ['members'],
        body: CreateInviteBody,
        response: { 201: CreatedInviteResponse, ...authErrors, 409: ErrorResponse },
      },
    },
    async (req, reply) => {
      const now = Date.now();
      // A bound on growth, not a quota worth a lock: concurrent invites may pass it by their number.
      if ((await oneTimeLinks.openInvites(accountOf(req), new Date(now).toISOString())).length >= OPEN_INVITES_PER_ACCOUNT) {
        throw new ConflictError(`invites: an account may hold at most ${OPEN_INVITES_PER_ACCOUNT} open invites; withdraw some first`);
      }
      const token = newSecretToken();
      const createdAt = new Date(now).toISOString();
      const expiresAt = new Date(now + INVITE_TTL_MS).toISOString();
      const role = req.body.role;
      const email = req.body.email?.trim() || null;
      const id = await oneTimeLinks.create({
        email,
        tokenHash: hashSecretToken(token),
        kind: 'invite',
        accountId: accountOf(req),
        role,
        createdBy: memberOf(req).userId,
        now: createdAt,
        expiresAt,
      });
      return reply
        .code(201)
        .send({ invite: { id, role, email, createdAt, expiresAt }, url: oneTimeLinkUrl(services.addresses.publicUrl(), 'invite', token) });
    },
  );

  app.delete(
    '/account/invites/:id',
    {
      config: { session: 'owner' },
      schema: { summary: 'Withdraw an open invite', tags: ['members'], params: InviteIdParams, response: { 200: OkResponse, ...errors } },
    },
    async (req) => {
      if (!(await oneTimeLinks.revokeInvite(accountOf(req), req.params.id, new Date().toISOString())))
        throw new NotFoundError('invite not found');
      return { ok: true };
    },
  );

  app.get(
    '/account/keys',
    {
      config: { session: 'owner' },
      schema: { summary: 'API keys of the account', tags: ['keys'], response: { 200: ApiKeysResponse, ...authErrors } },
    },
    async (req) => {
      const now = Date.now();
      return { keys: (await keys.listKeys(accountOf(req))).map((k) => keyView(k, now)) };
    },
  );

  app.post(
    '/account/keys',
    {
      config: { session: 'owner' },
      schema: {
        summary: `Create an API key; the secret is in this answer only (at most ${ACTIVE_KEYS_PER_ACCOUNT} active keys an account)`,
        tags: ['keys'],
        body: CreateKeyBody,
        response: { 201: CreatedKeyResponse, ...authErrors, 409: ErrorResponse },
      },
    },
    async (req, reply) => {
      const member = memberOf(req);
      const now = Date.now();
      const expiresAt = checkKeyExpiry(req.body.expiresAt, now);
      const fresh = generateApiKey();
      const name = req.body.name.trim() || 'default';
      const record = await keys.createKey({
        expiresAt,
        accountId: accountOf(req),
        name,
        prefix: fresh.prefix,
        hash: fresh.hash,
        scopes: req.body.scopes,
        createdBy: { id: member.userId, email: member.email },
        maxActive: ACTIVE_KEYS_PER_ACCOUNT,
      });
      return reply.code(201).send({ key: keyView(record, now), secret: fresh.key });
    },
  );

  app.post(
    '/account/keys/:id/rotate',
    {
      config: { session: 'owner' },
      schema: {
        summary:
          'Rotate an API key: its successor (same name and scopes; the secret is in this answer only), while the old key keeps working for graceSeconds (0 to 7 days, default 1 day)',
        tags: ['keys'],
        params: KeyIdParams,
        body: RotateKeyBody,
        response: { 201: RotatedKeyResponse, ...errors },
      },
      // Every field is optional: `curl -X POST` without a body rotates with the defaults.
      preValidation: (req, _reply, done) => {
        req.body ??= {};
        done();
      },
    },
    async (req, reply) => {
      const member = memberOf(req);
      const body = req.body;
      const expiresAt = checkKeyExpiry(body.expiresAt, Date.now());
      const fresh = generateApiKey();
      const rotated = await keys.rotateKey({
        id: req.params.id,
        accountId: accountOf(req),
        graceSeconds: body.graceSeconds ?? ROTATION_GRACE_DEFAULT_SECONDS,
        prefix: fresh.prefix,
        hash: fresh.hash,
        expiresAt,
        createdBy: { id: member.userId, email: member.email },
      });
      if (rotated === null) throw new NotFoundError('key not found');
      const now = Date.now();
      return reply.code(201).send({ key: keyView(rotated.successor, now), secret: fresh.key, previous: keyView(rotated.previous, now) });
    },
  );

  app.delete(
    '/account/keys/:id',
    {
      config: { session: 'owner' },
      schema: {
        summary: 'Revoke an API key (applies to the next request)',
        tags: ['keys'],
        params: KeyIdParams,
        response: { 200: OkResponse, ...errors },
      },
    },
    async (req) => {
      if (!(await keys.revokeKey(req.params.id, accountOf(req)))) throw new NotFoundError('key not found');
      return { ok: true };
    },
  );
};

function keyView(k: ApiKeyRecord, nowMs: number) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    scopes: k.scopes,
    createdAt: k.createdAt,
    createdBy: k.createdBy,
    lastUsedAt: k.lastUsedAt,
    revokedAt: k.revokedAt,
    expiresAt: k.expiresAt,
    replacedBy: k.replacedBy,
    status: keyStatus(k, nowMs),
  };
}
