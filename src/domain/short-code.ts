// Short codes: 7 base62 characters from a CSPRNG (62^7 ≈ 3.5e12). Uniqueness is
// enforced by the database; callers retry on the rare conflict.
import { randomBase62 } from './api-key.ts';

export const CODE_LENGTH = 7;
const CODE_RE = /^[A-Za-z0-9]{7}$/;

export function generateShortCode(): string {
  return randomBase62(CODE_LENGTH);
}

export function isShortCode(s: string): boolean {
  return CODE_RE.test(s);
}

export function shortUrlFor(publicBaseUrl: string, code: string): string {
  return `${publicBaseUrl}/r/${code}`;
}
