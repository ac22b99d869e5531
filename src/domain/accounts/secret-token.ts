// Random tokens for session cookies and one-time links. Only their SHA-256 is stored,
// so a leaked database row cannot be replayed as a cookie or a link.
import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, base64url: 43 characters, 256 bits. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSecretToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Cheap shape check before any lookup. */
export function looksLikeSecretToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}
