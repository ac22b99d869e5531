// First run: while the instance has no user, a one-time setup link lets its owner in. A link
// lasts SETUP_TTL_MS; each start of the server prints a new one and withdraws the earlier ones,
// so old links in logs stop working. The CLI's setup-link adds one.
import { oneTimeLinkUrl } from './domain/accounts/links.ts';
import { SETUP_TTL_MS } from './domain/accounts/session-policy.ts';
import { hashSecretToken, newSecretToken } from './domain/accounts/secret-token.ts';
import type { OneTimeLinksRepository } from './db/accounts/one-time-links-repository.ts';
import type { UsersRepository } from './db/accounts/users-repository.ts';

/** A fresh setup link, or null when the instance already has users. */
export async function makeSetupLink(
  users: UsersRepository,
  links: OneTimeLinksRepository,
  publicBaseUrl: string,
  { replaceEarlier = false } = {},
): Promise<string | null> {
  if (await users.any()) return null;
  const token = newSecretToken();
  const now = Date.now();
  if (replaceEarlier) await links.withdrawSetupLinks(new Date(now).toISOString());
  await links.create({
    tokenHash: hashSecretToken(token),
    kind: 'setup',
    now: new Date(now).toISOString(),
    expiresAt: new Date(now + SETUP_TTL_MS).toISOString(),
  });
  return oneTimeLinkUrl(publicBaseUrl, 'setup', token);
}

/** A reset link for one user (the CLI's `users reset-link`). */
export async function makeResetLink(
  links: OneTimeLinksRepository,
  userId: string,
  publicBaseUrl: string,
  ttlMs: number,
): Promise<{ url: string; expiresAt: string }> {
  const token = newSecretToken();
  const now = Date.now();
  const expiresAt = new Date(now + ttlMs).toISOString();
  await links.create({ tokenHash: hashSecretToken(token), kind: 'reset', userId, now: new Date(now).toISOString(), expiresAt });
  return { url: oneTimeLinkUrl(publicBaseUrl, 'reset', token), expiresAt };
}
