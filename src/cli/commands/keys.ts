// The key commands. `keys create` and `keys rotate` run here; `keys list` and `keys revoke` still run in src/cli.ts.
import { AccountsRepository } from '../../db/accounts/accounts-repository.ts';
import { ApiKeysRepository } from '../../db/accounts/api-keys-repository.ts';
import { generateApiKey, parseScopes } from '../../domain/accounts/api-key.ts';
import {
  ROTATION_GRACE_DEFAULT_SECONDS,
  ROTATION_GRACE_MAX_SECONDS,
  checkKeyExpiry,
  parseDurationSeconds,
} from '../../domain/accounts/key-lifecycle.ts';
import { NotFoundError, ValidationError } from '../../domain/errors.ts';
import { type CommandContext, defineCommand } from '../command.ts';

export const keysCreate = defineCommand({
  words: ['keys', 'create'],
  synopsis: '[--account NAME] --scopes qr:read,qr:write [--name LABEL] [--expires WHEN] [--json]',
  summary: 'make an API key for the only account, or for NAME (made if new); the key alone is the last line',
  options: {
    account: { type: 'string' },
    scopes: { type: 'string' },
    name: { type: 'string' },
    expires: { type: 'string' },
    json: { type: 'boolean' },
  },
  details: `Without --account the key is for the instance's only account (the one made at setup, in
the web app); with several, name one. A NAME that does not exist yet is created.
Scopes: qr:read (list, read, stats, images), qr:write (create, update, delete),
webhooks:read (endpoints, delivery logs), webhooks:write (add, change, delete endpoints).
--expires: an ISO date-time (2027-01-01T00:00:00Z) or a time from now (90d, 12h); from then
on the key answers 401 saying it expired. Without it the key lasts until revoked.
The key is shown once; only its SHA-256 is stored. --json prints {id, account, name, scopes, key, createdAt, expiresAt}.

  KEY=$(qrtrack keys create --scopes qr:read,qr:write | tail -n 1)`,
  async run({ values }, ctx) {
    if (!values.scopes) throw new ValidationError('keys create: --scopes is required, e.g. --scopes qr:read,qr:write');
    const scopes = parseScopes(values.scopes);
    const expiresAt = values.expires === undefined ? null : expiryOption(values.expires, 'keys create: --expires');
    const account = values.account ?? (await onlyAccount(ctx));
    const keys = new ApiKeysRepository(ctx.db);
    const accountId = await keys.ensureAccount(account);
    const fresh = generateApiKey();
    const record = await keys.createKey({
      accountId,
      name: values.name ?? 'default',
      prefix: fresh.prefix,
      hash: fresh.hash,
      scopes,
      expiresAt,
    });
    if (values.json) {
      const { id, name, createdAt } = record;
      return ctx.out(JSON.stringify({ id, account, name, scopes, key: fresh.key, createdAt, expiresAt }));
    }
    const until = expiresAt === null ? '' : `, expires ${expiresAt}`;
    ctx.note(`created key ${record.id} (${scopes.join(',')}${until}) for account "${account}"; it is shown only once:`);
    ctx.out(fresh.key);
  },
});

export const keysRotate = defineCommand({
  words: ['keys', 'rotate'],
  synopsis: 'KEY_ID [--grace DURATION] [--expires WHEN] [--json]',
  summary: 'make the successor of a key (shown once); the old key works on for the grace period, then stops',
  options: { grace: { type: 'string' }, expires: { type: 'string' }, json: { type: 'boolean' } },
  details: `The successor has the key's name and scopes. --grace: how long the old key keeps working,
from 0 (it stops now) to 7d; 1d by default. Answers to the old key carry Deprecation and Sunset
headers until then. --expires: the successor's own expiry, as for keys create.
--json prints {id, replaces, key, createdAt, expiresAt, previousExpiresAt}.`,
  async run({ values, positionals }, ctx) {
    const id = positionals[0];
    if (!id) throw new ValidationError('keys rotate: KEY_ID is required (see keys list)');
    const graceSeconds =
      values.grace === undefined ? ROTATION_GRACE_DEFAULT_SECONDS : parseDurationSeconds(values.grace, 'keys rotate: --grace');
    if (graceSeconds > ROTATION_GRACE_MAX_SECONDS) throw new ValidationError('keys rotate: --grace: must be at most 7d');
    const expiresAt = values.expires === undefined ? null : expiryOption(values.expires, 'keys rotate: --expires');
    const fresh = generateApiKey();
    const rotated = await new ApiKeysRepository(ctx.db).rotateKey({ id, graceSeconds, prefix: fresh.prefix, hash: fresh.hash, expiresAt });
    if (rotated === null) throw new NotFoundError(`keys rotate: no key with id ${id}`);
    const { successor, previous } = rotated;
    if (values.json) {
      return ctx.out(
        JSON.stringify({
          id: successor.id,
          replaces: previous.id,
          key: fresh.key,
          createdAt: successor.createdAt,
          expiresAt: successor.expiresAt,
          previousExpiresAt: previous.expiresAt,
        }),
      );
    }
    ctx.note(`key ${previous.id} works until ${previous.expiresAt}; its successor ${successor.id} is shown only once:`);
    ctx.out(fresh.key);
  },
});

/** --expires: an ISO date-time, or a time from now such as 90d. */
function expiryOption(raw: string, what: string): string {
  const now = Date.now();
  if (/^\d+[smhd]$/.test(raw.trim())) {
    const seconds = parseDurationSeconds(raw, what);
    if (seconds === 0) throw new ValidationError(`${what}: must be in the future`);
    return new Date(now + seconds * 1000).toISOString();
  }
  return checkKeyExpiry(raw, now, what) as string;
}

/**
 * The account a key is for when none is named: the only one. Defaulting to a made-up name gave
 * the web owner's first steps a second account they could never see in the web app.
 */
async function onlyAccount(ctx: CommandContext): Promise<string> {
  const accounts = await new AccountsRepository(ctx.db).list();
  if (accounts.length === 1) return accounts[0]!.name;
  if (accounts.length === 0) {
    throw new ValidationError(
      'keys create: there is no account yet; create the owner with the setup link `npm start` prints (or qrtrack setup-link), or name a new account with --account NAME',
    );
  }
  const names = accounts.map((a) => `"${a.name}"`).join(', ');
  throw new ValidationError(`keys create: ${accounts.length} accounts (${names}); say which with --account NAME`);
}

export const keysList = defineCommand({
  words: ['keys', 'list'],
  synopsis: '--account NAME [--json]',
  summary: "an account's keys: id, prefix, scopes, label, created, last used, state (active, rotated, expired, revoked)",
  options: { account: { type: 'string' }, json: { type: 'boolean' } },
});

export const keysRevoke = defineCommand({
  words: ['keys', 'revoke'],
  synopsis: 'KEY_ID',
  summary: 'revoke a key; its next request answers 401',
});
