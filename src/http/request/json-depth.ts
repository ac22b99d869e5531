// JSON bodies are refused past a nesting depth, and past a number of values, before they
// are parsed: every later step (validation, NUL checks, schema errors) walks the value on the
// thread that answers the short links, for seconds on a crafted body (docs/security.md). No API body
// needs more than a few levels, or more values than its route allows. One linear pass over
// the text, strings skipped.
import type {} from 'fastify';
import { ValidationError } from '../../domain/errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Values a JSON body of this route may hold (default MAX_JSON_VALUES). */
    maxJsonValues?: number;
  }
}

/** Deepest nesting any route accepts: a design object inside a body is depth 2. */
export const MAX_JSON_DEPTH = 32;

/**
 * Values in a body (counted as separating commas plus opened objects and arrays, so a value
 * nested alone in a container counts too), unless the route says otherwise: a create with
 * every field and 20 tags has about 80.
 */
export const MAX_JSON_VALUES = 2_000;

const COMMA = 0x2c;

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** True when brackets outside strings nest deeper than `max`. Malformed text is left to JSON.parse. */
export function nestsDeeperThan(text: string, max: number): boolean {
  return jsonShapeProblem(text, max, Number.POSITIVE_INFINITY) === 'depth';
}

/** Which limit the text breaks first, if any: nesting deeper than `maxDepth`, or more than `maxValues` values. */
export function jsonShapeProblem(text: string, maxDepth: number, maxValues: number): 'depth' | 'values' | null {
  let depth = 0;
  let values = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Strings are skipped with the native search: a 16 MiB batch is mostly logos in base64,
      // too slow to read a character at a time on the short links' thread.
      i = endOfString(text, i + 1);
    } else if (c === COMMA) {
      // Every value but a container's first follows a comma; a container's first (or only)
      // value is counted with the container: 28 arrays nested in each of 99,990 elements
      // hid 2.9 million values behind 99,990 commas.
      if (++values > maxValues) return 'values';
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > maxDepth) return 'depth';
      if (++values > maxValues) return 'values';
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    }
  }
  return null;
}

/** The index of the quote closing a string that starts at `from`, or the text's length when none does. */
function endOfString(text: string, from: number): number {
  for (let at = text.indexOf('"', from); at !== -1; at = text.indexOf('"', at + 1)) {
    let slashes = 0;
    while (at - 1 - slashes >= from && text.charCodeAt(at - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return at;
  }
  return text.length;
}

/** The 400 for text that breaks a limit (jsonShapeProblem), or null when it breaks none. */
export function jsonShapeError(text: string, maxDepth: number, maxValues: number): ValidationError | null {
  const problem = jsonShapeProblem(text, maxDepth, maxValues);
  if (problem === 'depth') return new ValidationError(`body: must not nest deeper than ${maxDepth} levels`);
  if (problem === 'values') return new ValidationError(`body: must not hold more than ${maxValues} values (array elements and fields)`);
  return null;
}
