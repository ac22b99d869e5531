// The qrtrack command. Commands are listed (with their help) in src/cli/registry.ts, one
// module each under src/cli/commands/; keys list and revoke, setup-link, users reset-link and
// `serve` still run here.
import { ConfigError, loadConfig } from './config.ts';
import { type ApiKeyRecord, ApiKeysRepository } from './db/accounts/api-keys-repository.ts';
import { keyStatus } from './domain/accounts/key-lifecycle.ts';
import { openDatabase } from './db/database.ts';
import { addressesOf } from './db/domains/addresses.ts';
import { DomainError } from './domain/errors.ts';
import { normaliseEmail } from './domain/accounts/identity.ts';
import { RESET_TTL_MS } from './domain/accounts/session-policy.ts';
import { OneTimeLinksRepository } from './db/accounts/one-time-links-repository.ts';
import { UsersRepository } from './db/accounts/users-repository.ts';
import { makeResetLink, makeSetupLink } from './first-run.ts';
import { BulkUsageError } from './cli/bulk-usage.ts';
import type { CliCommand, Options } from './cli/command.ts';
import { keysList, keysRevoke } from './cli/commands/keys.ts';
import { serve } from './cli/commands/serve.ts';
import { setupLink } from './cli/commands/setup-link.ts';
import { usersResetLink } from './cli/commands/users-reset-link.ts';
import { parseCommandArgs } from './cli/parse-command-args.ts';
import { dispatch } from './cli/registry.ts';

const USAGE = 'unknown command; see qrtrack --help';

class UsageError extends Error {}

/**
 * Says which database a command works on when DATABASE_URL is not set: run beside a server on
 * PostgreSQL without it, `keys create` made its key in a fresh SQLite file and exited 0.
 */
function noteDefaultDatabase(argv: readonly string[]): void {
  if (process.env.DATABASE_URL !== undefined || argv.length === 0 || argv[0] === 'serve' || argv[0] === 'help') return;
  if (argv.some((a) => a === '--help' || a === '-h')) return;
  process.stderr.write('qrtrack: DATABASE_URL is not set: working on the SQLite file ./data/qrtrack.db\n');
}

async function run(argv: string[]): Promise<void> {
  noteDefaultDatabase(argv);
  if (await dispatch(argv)) return;
  const [group, command] = argv;
  // Parsed against the same definitions as the registry's commands, so bad options read alike.
  const argsOf = <O extends Options>(c: CliCommand<O>) => parseCommandArgs(c, argv.slice(c.words.length));
  if (group === 'serve') {
    argsOf(serve);
    // The bin (bin/qrtrack.js) has built the web app first when its sources changed, as `npm start` does.
    await import('./server.ts');
    return;
  }
  if (group === 'setup-link') {
    argsOf(setupLink);
    return runAccounts(group, undefined);
  }
  if (group === 'users' && command === 'reset-link') return runAccounts(group, argsOf(usersResetLink).positionals[0]);
  // Big accounts: import and export.
  if (group === 'import' || group === 'export') {
    const { runBulkCommand } = await import('./cli/bulk-commands.ts');
    return runBulkCommand(group, argv.slice(1), loadConfig());
  }
  if (group === 'keys' && command === 'list') return withKeys(listKeys, argsOf(keysList).values);
  if (group === 'keys' && command === 'revoke') return withKeys(revokeKey, argsOf(keysRevoke).positionals[0]);
  throw new UsageError(USAGE);
}

async function withKeys<A>(action: (keys: ApiKeysRepository, arg: A) => Promise<void>, arg: A): Promise<void> {
  const db = await openDatabase(loadConfig().database);
  try {
    await action(new ApiKeysRepository(db), arg);
  } finally {
    await db.close();
  }
}

async function runAccounts(group: 'setup-link' | 'users', email: string | undefined): Promise<void> {
  if (group === 'users' && !email) throw new UsageError('users reset-link: EMAIL is required');
  const config = loadConfig();
  const db = await openDatabase(config.database);
  try {
    const users = new UsersRepository(db);
    const links = new OneTimeLinksRepository(db);
    if (group === 'setup-link') {
      const url = await makeSetupLink(users, links, (await addressesOf(db, config)).publicUrl());
      if (url === null)
        throw new UsageError('setup-link: this instance already has users; sign in, or use: qrtrack users reset-link EMAIL');
      process.stderr.write('open this link to create the owner account; it works once:\n');
      return out(url);
    }
    const user = await users.findByEmail(normaliseEmail(email ?? ''));
    if (!user) throw new UsageError(`users reset-link: no user with email ${email}`);
    const link = await makeResetLink(links, user.id, (await addressesOf(db, config)).publicUrl(), RESET_TTL_MS);
    process.stderr.write(`open this link to set a new password for ${user.email}; it works once, until ${link.expiresAt}:\n`);
    out(link.url);
  } finally {
    await db.close();
  }
}

interface KeyOptions {
  account?: string;
  json?: boolean;
}

async function listKeys(keys: ApiKeysRepository, o: KeyOptions): Promise<void> {
  if (!o.account) throw new UsageError('keys list: --account NAME is required');
  const accountId = await keys.findAccountId(o.account);
  const list = accountId ? await keys.listKeys(accountId) : [];
  if (o.json) return out(JSON.stringify(list));
  if (list.length === 0) return out(`no keys for account "${o.account}"`);
  const now = Date.now();
  for (const k of list) {
    const state = keyState(k, now);
    out(`${k.id}  ${k.prefix}…  ${k.scopes.join(',')}  ${k.name}  created ${k.createdAt}  last used ${k.lastUsedAt ?? 'never'}  ${state}`);
  }
}

function keyState(k: ApiKeyRecord, now: number): string {
  const status = keyStatus(k, now);
  if (status === 'revoked') return `revoked ${k.revokedAt}`;
  if (status === 'expired') return `expired ${k.expiresAt}`;
  if (status === 'rotated') return `rotated, works until ${k.expiresAt} (successor ${k.replacedBy})`;
  return k.expiresAt === null ? 'active' : `active, expires ${k.expiresAt}`;
}

async function revokeKey(keys: ApiKeysRepository, id: string | undefined): Promise<void> {
  if (!id) throw new UsageError('keys revoke: KEY_ID is required (see keys list)');
  if (!(await keys.revokeKey(id))) throw new UsageError(`keys revoke: no key with id ${id}`);
  out(`revoked ${id}`);
}

function out(line: string): void {
  process.stdout.write(line + '\n');
}

run(process.argv.slice(2)).catch((err: unknown) => {
  const known = err instanceof UsageError || err instanceof BulkUsageError || err instanceof ConfigError || err instanceof DomainError;
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(known ? `qrtrack: ${message}\n` : `qrtrack: failed: ${message}\n`);
  process.exit(2);
});
