// Device cookies against lockout. The sign-in limits hold 5 failures per email in 15 minutes,
// so anyone who knows an email could keep its owner out by sending wrong passwords. After a
// sign-in, a browser gets a long-lived random token (stored as its SHA-256); a sign-in from a
// browser holding a token trusted for that email is counted on its own, per browser. Wrong
// passwords sent from elsewhere then lock out only browsers the user never signed in from.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hashSecretToken, looksLikeSecretToken, newSecretToken } from '../../domain/accounts/secret-token.ts';
import type { AppServices } from '../../services.ts';
import { addressKey } from '../../domain/address-key.ts';
import { isHttps, publicOf } from './session-auth.ts';

const DEVICE_MAX_AGE_S = 365 * 24 * 3600;

function deviceCookieName(services: AppServices): string {
  return isHttps(publicOf(services)) ? '__Host-qrtrack_device' : 'qrtrack_device';
}

/** The SHA-256 of this browser's device token when it is one we gave `userId`, else null. */
async function trustedHash(req: FastifyRequest, services: AppServices, userId: string | null): Promise<string | null> {
  const token = req.cookies[deviceCookieName(services)];
  if (userId === null || token === undefined || !looksLikeSecretToken(token)) return null;
  const hash = hashSecretToken(token);
  return (await services.trustedDevices.userOf(hash)) === userId ? hash : null;
}

/**
 * What a sign-in attempt as `userId` (null: no such user) is counted under: this browser when
 * it is trusted for the user, else the client's address and the email.
 */
export async function attemptKeys(
  req: FastifyRequest,
  services: AppServices,
  email: string,
  userId: string | null,
): Promise<{ address: string; email: string }> {
  const hash = await trustedHash(req, services, userId);
  return hash === null ? { address: addressKey(req.ip), email } : { address: `device:${hash}`, email: `${email}#device:${hash}` };
}

/** After a successful sign-in: trusts this browser for the user (a new token unless it holds theirs). */
export async function rememberDevice(req: FastifyRequest, reply: FastifyReply, services: AppServices, userId: string): Promise<void> {
  const name = deviceCookieName(services);
  const given = req.cookies[name];
  const kept = given !== undefined && (await trustedHash(req, services, userId)) !== null;
  const token = kept ? (given as string) : newSecretToken();
  await services.trustedDevices.remember(hashSecretToken(token), userId, new Date().toISOString());
  void reply.setCookie(name, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isHttps(publicOf(services)),
    maxAge: DEVICE_MAX_AGE_S,
  });
}
