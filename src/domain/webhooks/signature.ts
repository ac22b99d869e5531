// Signing per the Standard Webhooks specification: the secret is `whsec_` + base64 of 32 random
// bytes; a signature is `v1,` + base64(HMAC-SHA256(secret bytes, "id.timestamp.body")). During a
// rotation's overlap both secrets sign, and the header carries both signatures, space-separated.
import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;
/** How long the secret a rotation replaced keeps signing (receivers switch in that time). */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

function secretBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** `body`: the text, or its UTF-8 bytes (the same signature). */
export function sign(secret: string, msgId: string, timestampSeconds: number, body: string | Uint8Array): string {
  const mac = createHmac('sha256', secretBytes(secret)).update(`${msgId}.${timestampSeconds}.`, 'utf8');
  if (typeof body === 'string') mac.update(body, 'utf8');
  else mac.update(body);
  return `v1,${mac.digest('base64')}`;
}

/** The webhook-signature header: one signature per secret in force. */
export function signatureHeader(secrets: readonly string[], msgId: string, timestampSeconds: number, body: string | Uint8Array): string {
  return secrets.map((s) => sign(s, msgId, timestampSeconds, body)).join(' ');
}
