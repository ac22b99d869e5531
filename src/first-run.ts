// First run: while the instance has no user, a one-time setup link lets its owner in.
// Each call makes a new link; every open one works until the first setup succeeds.
import { oneTimeLinkUrl } from './domain/accounts/links.ts';
import { hashSecretToken, newSecretToken } from './domain/accounts/secret-token.ts';
import type { OneTimeLinksRepository } from './db/accounts/one-time-links-repository.ts';
import type { UsersRepository } from './db/accounts/users-repository.ts';

/** A fresh setup link, or null when the instance already has users. */
export async function makeSetupLink(users: UsersRepository, links: OneTimeLinksRepository, publicBaseUrl: string): Promise<string | null> {
  if (await users.any()) return null;
  const token = newSecretToken();
  await links.create({ tokenHash: hashSecretToken(token), kind: 'setup', now: new Date().toISOString() });
  return oneTimeLinkUrl(publicBaseUrl, 'setup', token);
}

/** A reset link for one user (the CLI's `users reset-link`). */
export async function makeResetLink(links: OneTimeLinksRepository, userId: string, publicBaseUrl: string, ttlMs: number): Promise<{ url: string; expiresAt: string }> {
  const token = newSecretToken();
  const now = Date.now();
  const expiresAt = new Date(now + ttlMs).toISOString();
  await links.create({ tokenHash: hashSecretToken(token), kind: 'reset', userId, now: new Date(now).toISOString(), expiresAt });
  return { url: oneTimeLinkUrl(publicBaseUrl, 'reset', token), expiresAt };
}
