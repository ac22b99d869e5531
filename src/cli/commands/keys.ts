// The key commands. `keys create` runs here; `keys list` and `keys revoke` still run in src/cli.ts.
import { AccountsRepository } from '../../db/accounts/accounts-repository.ts';
import { ApiKeysRepository } from '../../db/accounts/api-keys-repository.ts';
import { generateApiKey, parseScopes } from '../../domain/accounts/api-key.ts';
import { ValidationError } from '../../domain/errors.ts';
import { type CommandContext, defineCommand } from '../command.ts';

export const keysCreate = defineCommand({
  words: ['keys', 'create'],
  synopsis: '[--account NAME] --scopes qr:read,qr:write [--name LABEL] [--json]',
  summary: 'make an API key for the only account, or for NAME (made if new); the key alone is the last line',
  options: { account: { type: 'string' }, scopes: { type: 'string' }, name: { type: 'string' }, json: { type: 'boolean' } },
  details: `Without --account the key is for the instance's only account (the one made at setup, in
the web app); with several, name one. A NAME that does not exist yet is created.
Scopes: qr:read (list, read, stats, images), qr:write (create, update, delete).
The key is shown once; only its SHA-256 is stored. --json prints {id, account, name, scopes, key, createdAt}.

  KEY=$(qrtrack keys create --scopes qr:read,qr:write | tail -n 1)`,
  async run({ values }, ctx) {
    if (!values.scopes) throw new ValidationError('keys create: --scopes is required, e.g. --scopes qr:read,qr:write');
    const scopes = parseScopes(values.scopes);
    const account = values.account ?? (await onlyAccount(ctx));
    const keys = new ApiKeysRepository(ctx.db);
    const accountId = await keys.ensureAccount(account);
    const fresh = generateApiKey();
    const record = await keys.createKey({ accountId, name: values.name ?? 'default', prefix: fresh.prefix, hash: fresh.hash, scopes });
    if (values.json) {
      return ctx.out(JSON.stringify({ id: record.id, account, name: record.name, scopes, key: fresh.key, createdAt: record.createdAt }));
    }
    ctx.note(`created key ${record.id} (${scopes.join(',')}) for account "${account}"; it is shown only once:`);
    ctx.out(fresh.key);
  },
});

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
  summary: "an account's keys: id, prefix, scopes, label, created, last used, revoked",
  options: { account: { type: 'string' }, json: { type: 'boolean' } },
});

export const keysRevoke = defineCommand({
  words: ['keys', 'revoke'],
  synopsis: 'KEY_ID',
  summary: 'revoke a key; its next request answers 401',
});
