// A JSON body read as request-parsing.ts reads one (strict UTF-8, the depth and value limits,
// no __proto__), from its bytes alone: so a worker thread can read a large body (a 16 MiB batch)
// off the thread that answers the short links, with the same answers.
import { DomainError, ValidationError } from '../../domain/errors.ts';
import { MAX_JSON_DEPTH, jsonShapeError } from './json-depth.ts';
import { utf8Text } from './utf8-body.ts';

export const FORBIDDEN_KEY = 'body: a field named __proto__, or constructor holding prototype, is not allowed';

/** The body's value, or the error to answer. An empty body is no body (undefined), as on the main thread. */
export function readJsonBody(bytes: Uint8Array, contentType: string | undefined, maxValues: number): unknown {
  const text = utf8Text(contentType, bytes);
  if (text instanceof DomainError) throw text;
  if (text === '') return undefined;
  const shapeError = jsonShapeError(text, MAX_JSON_DEPTH, maxValues);
  if (shapeError !== null) throw shapeError;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ValidationError('body: is not valid JSON');
  }
  // JSON.parse makes __proto__ an own field (it never sets a prototype); refused as Fastify's
  // parser refuses it, since a later spread or merge would.
  if (/"(?:__proto__|constructor)"/.test(text) && holdsForbiddenKey(value)) throw new ValidationError(FORBIDDEN_KEY);
  return value;
}

function holdsForbiddenKey(root: unknown): boolean {
  const stack: unknown[] = [root];
  for (let value = stack.pop(); value !== undefined || stack.length > 0; value = stack.pop()) {
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (const v of value) stack.push(v);
      continue;
    }
    const record = value as Record<string, unknown>;
    if (Object.hasOwn(record, '__proto__')) return true;
    const ctor = record.constructor;
    if (Object.hasOwn(record, 'constructor') && typeof ctor === 'object' && ctor !== null && Object.hasOwn(ctor, 'prototype')) return true;
    for (const k in record) if (Object.hasOwn(record, k)) stack.push(record[k]);
  }
  return false;
}
