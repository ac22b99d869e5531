// Named schemas for the OpenAPI document. A schema built with `named('QrItem', …)` (src/domain/schema-kit.ts)
// validates exactly as before (the marker is an annotation TypeBox ignores), and in the
// published document every occurrence becomes `$ref: '#/components/schemas/QrItem'`.
// Hoisting happens only on the document, never on the schemas that validate requests, so
// no `$id`/`$ref` resolution ever reaches the validator. A route added later gets named
// components by naming its schemas; nothing else needs to change.
import { isDeepStrictEqual } from 'node:util';
import { SCHEMA_NAME } from '../../domain/schema-kit.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Components {
  components?: { schemas?: Record<string, unknown> } & Record<string, unknown>;
}

/**
 * A copy of the document in which every named schema is replaced by a `$ref` to
 * `components.schemas[name]`. Two different schemas under one name are a programming
 * error and throw, so a test that reads the document catches them.
 */
export function hoistNamedSchemas<D extends object>(doc: D): D {
  const found = new Map<string, Json>();
  const hoist = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(hoist);
    if (node === null || typeof node !== 'object') return node;
    const copy: { [key: string]: Json } = {};
    for (const [key, value] of Object.entries(node)) if (key !== SCHEMA_NAME) copy[key] = hoist(value);
    const name = node[SCHEMA_NAME];
    if (typeof name !== 'string') return copy;
    const seen = found.get(name);
    if (seen !== undefined && !isDeepStrictEqual(seen, copy)) throw new Error(`two different schemas are named "${name}"`);
    found.set(name, copy);
    return { $ref: `#/components/schemas/${name}` };
  };
  const out = hoist(structuredClone(doc) as unknown as Json) as Components;
  const schemas = { ...(out.components?.schemas ?? {}) };
  for (const name of [...found.keys()].sort()) {
    if (name in schemas) throw new Error(`schema name "${name}" is already a component`);
    schemas[name] = found.get(name);
  }
  out.components = { ...out.components, schemas };
  return out as D;
}
