// TypeBox schemas of the web-account routes: sessions, onboarding links, members,
// invites and keys. They validate requests and generate the OpenAPI document; the
// browser app reads their static types (type-only, nothing of this file is bundled).
import { type Static, Type } from 'typebox';
import { ACCOUNT_NAME_MAX, EMAIL_MAX } from '../../domain/accounts/identity.ts';
import { PASSWORD_MAX } from '../../domain/accounts/password.ts';
import { ROLES } from '../../domain/accounts/roles.ts';
import { SCOPES } from '../../domain/accounts/api-key.ts';
import { KEY_STATUSES, ROTATION_GRACE_DEFAULT_SECONDS, ROTATION_GRACE_MAX_SECONDS } from '../../domain/accounts/key-lifecycle.ts';
import { Enum, named } from '../../domain/schema-kit.ts';
import { PublicAddress } from './domains.ts';

const Email = Type.String({
  minLength: 1,
  maxLength: EMAIL_MAX,
  rule: 'must be an email address such as ada@example.com',
  examples: ['ada@example.com'],
});
const Password = Type.String({ minLength: 1, maxLength: PASSWORD_MAX, rule: `must be a string of at most ${PASSWORD_MAX} characters` });
const AccountName = Type.String({
  minLength: 1,
  maxLength: ACCOUNT_NAME_MAX,
  rule: `must be a name of 1 to ${ACCOUNT_NAME_MAX} characters`,
});
const RoleSchema = Enum(ROLES);
const ScopeSchema = Enum(SCOPES);
const Uuid = (what: string) => Type.String({ format: 'uuid', rule: 'must be a UUID', description: what });
const Time = Type.String({ format: 'date-time' });
const TimeOrNull = Type.Union([Time, Type.Null()]);
const Token = Type.String({ pattern: '^[A-Za-z0-9_-]{43}$', rule: 'must be the token from the link' });

export const TokenParams = Type.Object({ token: Token }, { additionalProperties: false });
export const UserIdParams = Type.Object({ userId: Uuid('The member’s user id') }, { additionalProperties: false });
export const RemoveMemberQuery = Type.Object(
  {
    keepKeys: Type.Optional(
      Type.Boolean({ description: 'Keep the API keys the member made working (default: they are revoked with the removal)' }),
    ),
  },
  { additionalProperties: false },
);
export const KeyIdParams = Type.Object({ id: Uuid('The key id') }, { additionalProperties: false });
export const InviteIdParams = Type.Object({ id: Uuid('The invite id') }, { additionalProperties: false });

export const InstanceResponse = Type.Object({
  setupRequired: Type.Boolean({ description: 'True until the first user was created with the setup link' }),
  signup: Type.Enum(['invite', 'open']),
  publicAddress: PublicAddress,
});

const AccountRef = Type.Object({ id: Type.String(), name: Type.String(), role: RoleSchema });

export const SessionResponse = Type.Object({
  user: Type.Object({ id: Type.String(), email: Type.String() }),
  account: AccountRef,
  scopes: Type.Array(ScopeSchema),
  accounts: Type.Array(AccountRef, { description: 'Every account the user is a member of' }),
  csrfToken: Type.String({ description: 'Send it as X-CSRF-Token on every state-changing request made with this session' }),
});

export const SignInBody = Type.Object({ email: Email, password: Password }, { additionalProperties: false });
export const SetupBody = Type.Object(
  {
    token: Token,
    accountName: AccountName,
    email: Email,
    password: Password,
    publicBaseUrl: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2048,
        rule: 'must be an address such as https://qr.example.com',
        description: 'The address people will scan (short links are built on it); PUBLIC_BASE_URL overrides it',
      }),
    ),
  },
  { additionalProperties: false },
);
export const SignUpBody = Type.Object({ accountName: AccountName, email: Email, password: Password }, { additionalProperties: false });
export const AcceptInviteBody = Type.Object({ email: Email, password: Password }, { additionalProperties: false });
export const ResetPasswordBody = Type.Object({ password: Password }, { additionalProperties: false });
export const ChangePasswordBody = Type.Object({ currentPassword: Password, newPassword: Password }, { additionalProperties: false });
export const SwitchAccountBody = Type.Object({ accountId: Uuid('An account the user is a member of') }, { additionalProperties: false });

export const InvitePreviewResponse = Type.Object({
  accountName: Type.String(),
  role: RoleSchema,
  expiresAt: Time,
  email: Type.Union([Type.String(), Type.Null()], { description: 'Who the owner made it for, if they said' }),
});
export const ResetPreviewResponse = Type.Object({ email: Type.String(), expiresAt: Time });

const RetentionDays = Type.Union([Type.Integer({ minimum: 1, maximum: 3650 }), Type.Null()], {
  description: 'Days raw scans and per-day breakdowns are kept (1 to 3650); null keeps them forever. Totals always stay.',
});

export const AccountResponse = Type.Object({
  account: Type.Object({ id: Type.String(), name: Type.String(), createdAt: Time, scanRetentionDays: RetentionDays }),
  role: RoleSchema,
});

export const UpdateAccountBody = Type.Object({ scanRetentionDays: RetentionDays }, { additionalProperties: false });

export const Member = Type.Object({ userId: Type.String(), email: Type.String(), role: RoleSchema, joinedAt: Time });
export const MembersResponse = Type.Object({ members: Type.Array(Member) });
export const ChangeRoleBody = Type.Object({ role: RoleSchema }, { additionalProperties: false });
export const MemberResponse = Type.Object({ member: Member });

export const Invite = Type.Object({
  id: Type.String(),
  role: RoleSchema,
  email: Type.Union([Type.String(), Type.Null()], {
    description: 'Who the invite is for, as the owner typed it (so open invites can be told apart); the link works for whoever opens it',
  }),
  createdAt: Time,
  expiresAt: Time,
});
export const InvitesResponse = Type.Object({ invites: Type.Array(Invite) });
export const CreateInviteBody = Type.Object(
  {
    role: RoleSchema,
    email: Type.Optional(
      Type.Union([Email, Type.Null()], {
        rule: 'must be an email address such as ada@example.com, or null',
        description: 'Who it is for: shown in the list of open invites and filled in on the invite page',
      }),
    ),
  },
  { additionalProperties: false },
);
export const LinkResponse = Type.Object({
  url: Type.String({ description: 'The one-time link; it is shown only now' }),
  expiresAt: Time,
});
export const CreatedInviteResponse = Type.Object({
  invite: Invite,
  url: Type.String({ description: 'The one-time invite link; it is shown only now' }),
});

export const ApiKeyView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String({ description: 'The first characters of the key, to recognise it' }),
  scopes: Type.Array(ScopeSchema),
  createdAt: Time,
  createdBy: Type.Union([Type.Object({ id: Type.String(), email: Type.String() }), Type.Null()], {
    description: 'null for keys made with the CLI',
  }),
  lastUsedAt: TimeOrNull,
  revokedAt: TimeOrNull,
  expiresAt: Type.Union([Time, Type.Null()], {
    description: 'From this instant the key answers 401 (a rotated key: the end of its grace period); null: never',
  }),
  replacedBy: Type.Union([Type.String(), Type.Null()], { description: 'The id of the key a rotation made to replace this one' }),
  status: Enum(KEY_STATUSES, 'Computed when read; rotated: replaced, and still working until expiresAt'),
});
export const ApiKeysResponse = Type.Object({ keys: Type.Array(ApiKeyView) });
const KeyExpiry = Type.Union([Time, Type.Null()], {
  rule: 'must be null or an ISO 8601 date-time with an offset, e.g. 2027-01-01T00:00:00Z',
  description: 'The key answers 401 from this instant on (it must be in the future); null or absent: never',
});
export const CreateKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 80, rule: 'must be a name of 1 to 80 characters' }),
    scopes: Type.Array(ScopeSchema, {
      minItems: 1,
      maxItems: SCOPES.length,
      uniqueItems: true,
      rule: `must list one or more of ${SCOPES.join(', ')}`,
    }),
    expiresAt: Type.Optional(KeyExpiry),
  },
  { additionalProperties: false },
);
export const CreatedKeyResponse = Type.Object({
  key: ApiKeyView,
  secret: Type.String({ description: 'The key itself; it is shown only now' }),
});
export const RotateKeyBody = Type.Object(
  {
    graceSeconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: ROTATION_GRACE_MAX_SECONDS,
        rule: `must be an integer from 0 to ${ROTATION_GRACE_MAX_SECONDS} (7 days)`,
        description: `How long the old key keeps working (default ${ROTATION_GRACE_DEFAULT_SECONDS}: a day; 0 stops it now)`,
      }),
    ),
    expiresAt: Type.Optional(KeyExpiry),
  },
  { additionalProperties: false },
);
export const RotatedKeyResponse = Type.Object({
  key: ApiKeyView,
  secret: Type.String({ description: 'The successor key itself; it is shown only now' }),
  previous: ApiKeyView,
});

export type InstanceView = Static<typeof InstanceResponse>;
export type SessionView = Static<typeof SessionResponse>;
export type MemberView = Static<typeof Member>;
export type InviteView = Static<typeof Invite>;
export type ApiKeyListItem = Static<typeof ApiKeyView>;
export type CreatedKey = Static<typeof CreatedKeyResponse>;
export type RotatedKey = Static<typeof RotatedKeyResponse>;
export type CreatedInvite = Static<typeof CreatedInviteResponse>;
export type LinkView = Static<typeof LinkResponse>;
export type InvitePreview = Static<typeof InvitePreviewResponse>;
export type ResetPreview = Static<typeof ResetPreviewResponse>;

// Components of the OpenAPI document (see src/http/schemas/openapi-components.ts): request bodies
// are named like CreateQrRequest, the rest keep their names here.
for (const [name, schema] of Object.entries({
  InstanceResponse,
  SessionResponse,
  SignInBody,
  SetupBody,
  SignUpBody,
  AcceptInviteBody,
  ResetPasswordBody,
  ChangePasswordBody,
  SwitchAccountBody,
  InvitePreviewResponse,
  ResetPreviewResponse,
  AccountResponse,
  UpdateAccountBody,
  Member,
  MembersResponse,
  ChangeRoleBody,
  MemberResponse,
  Invite,
  InvitesResponse,
  CreateInviteBody,
  LinkResponse,
  CreatedInviteResponse,
  ApiKeyView,
  ApiKeysResponse,
  CreateKeyBody,
  CreatedKeyResponse,
  RotateKeyBody,
  RotatedKeyResponse,
})) {
  named(name.replace(/Body$/, 'Request').replace(/^ApiKeyView$/, 'ApiKey'), schema);
}
