// Idempotency keys (the IETF draft's `Idempotency-Key` header): a retried create answers
// what the first one answered and creates nothing new.
import { createHash } from 'node:crypto';
import { DomainError } from './errors.ts';

/** How long a key is remembered. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** The same key sent with another request: a client bug, never replayed. */
export class IdempotencyKeyReusedError extends DomainError {
  constructor() {
    super('Idempotency-Key: was already used with a different request; use a new key for a new request', 422);
  }
}

/** Two requests with one key at the same moment: the second is told to retry. */
export class IdempotencyKeyBusyError extends DomainError {
  constructor() {
    super('Idempotency-Key: a request with this key is still being answered; retry shortly', 409);
  }
}

/**
 * What makes two requests "the same": method, route and body, the body as its value (object
 * keys in any order, any spacing), so a client that serialises the same request differently
 * on a retry is not told it sent another.
 */
export function requestFingerprint(method: string, route: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${route}\n${canonicalJson(body ?? null)}`)
    .digest('hex');
}

/** JSON with object keys sorted at every level. Bodies are at most 1 MiB and 32 levels deep. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
