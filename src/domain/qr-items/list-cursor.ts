// Opaque list cursors: the (createdAt, id) of the last item of a page, base64url-encoded.
import { ValidationError } from '../errors.ts';

export interface ListCursor {
  createdAt: string;
  id: string;
}

export function encodeCursor(c: ListCursor): string {
  return Buffer.from(JSON.stringify([c.createdAt, c.id]), 'utf8').toString('base64url');
}

export function decodeCursor(raw: string): ListCursor {
  const bad = () => new ValidationError('cursor: must be a cursor returned as nextCursor');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw bad();
  const [createdAt, id] = parsed as unknown[];
  if (typeof createdAt !== 'string' || typeof id !== 'string') throw bad();
  if (Number.isNaN(Date.parse(createdAt)) || !/^[0-9a-f-]{36}$/.test(id)) throw bad();
  return { createdAt: new Date(createdAt).toISOString(), id };
}
