// Request bodies are UTF-8 (JSON must be, RFC 8259; our CSV says so). Node's decoder would
// turn bytes that are not UTF-8 into U+FFFD and the item would be stored with them, so a
// body is decoded strictly and refused, naming the body, when it is not UTF-8.
import type { FastifyRequest } from 'fastify';
import { DomainError, ValidationError } from '../../domain/errors.ts';

const strict = new TextDecoder('utf-8', { fatal: true });

/** The body as text, or the error to answer: 415 for a declared charset other than UTF-8, 400 for bytes that are not UTF-8. */
export function utf8Body(req: FastifyRequest, body: Buffer): string | DomainError {
  return utf8Text(req.headers['content-type'], body);
}

/** As utf8Body, from the Content-Type header alone (a worker thread has no request). */
export function utf8Text(contentType: string | undefined, body: Uint8Array): string | DomainError {
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType ?? '')?.[1];
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
    return new DomainError(`Content-Type: charset ${charset || '(empty)'} is not accepted; send UTF-8`, 415);
  }
  try {
    return strict.decode(body);
  } catch {
    return new ValidationError('body: is not valid UTF-8');
  }
}
