// Help for the key commands; src/cli.ts runs them.
import { defineCommand } from '../command.ts';

export const keysCreate = defineCommand({
  words: ['keys', 'create'],
  synopsis: '--account NAME --scopes qr:read,qr:write [--name LABEL] [--json]',
  summary: 'make an API key (and the account, if new); the key alone is the last line',
  options: { account: { type: 'string' }, scopes: { type: 'string' }, name: { type: 'string' }, json: { type: 'boolean' } },
  details: `Scopes: qr:read (list, read, stats, images), qr:write (create, update, delete).
The key is shown once; only its SHA-256 is stored. --json prints {id, account, name, scopes, key, createdAt}.

  KEY=$(qrtrack keys create --account demo --scopes qr:read,qr:write | tail -n 1)`,
});

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
