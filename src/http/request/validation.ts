// Request validation with TypeBox, and 400 messages that name the field and the rule.
// Bodies are never coerced (a "5" is not a number); query strings and params are
// converted strictly (an integer query value must be written as one).
import type { FastifySchemaCompiler } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile, type Validator } from 'typebox/compile';
import { ValidationError } from '../../domain/errors.ts';
import { batchError } from '../../domain/qr-items/qr-batch.ts';

interface SchemaNode {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  rule?: string;
  enum?: unknown[];
  format?: string;
}

interface TbError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const check = Compile(schema);
  const root = schema as SchemaNode;
  const elements =
    root.properties?.items?.type === 'array' && root.properties.items.items ? Compile(root.properties.items.items as TSchema) : null;
  const convert = httpPart === 'body' ? (v: unknown) => v : (v: unknown) => convertStrings(root, v);
  return (input: unknown) => {
    const value = convert(input);
    // NUL cannot be stored in PostgreSQL text, and a lone surrogate cannot be encoded as
    // UTF-8 (it would be stored as U+FFFD without a word): neither belongs in any field.
    // A CSV body (the only string body) is checked cell by cell by the import, which names the
    // line and the column; here it would only be "body".
    const bad = httpPart === 'body' && typeof value === 'string' ? null : pathOfUnstorable(value);
    if (bad !== null)
      return { error: new ValidationError(`${bad || httpPart || 'body'}: must be valid Unicode text without NUL characters`) };
    if (check.Check(value)) return { value };
    const errors = check.Errors(value) as unknown as TbError[];
    const perItem = elements === null ? null : describeEachItem(root, elements, errors, httpPart ?? 'body', value);
    if (perItem !== null) return { error: batchError(perItem) };
    return { error: new ValidationError(describe(root, errors, httpPart ?? 'body', value)) };
  };
};

/** The single clearest message for a failed value: unknown fields first, then missing, then the deepest rule. */
function describe(root: SchemaNode, errors: TbError[], part: string, value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `${part}: ${root.rule ?? 'must be an object'}`;
  }
  const extra = errors.find((e) => e.keyword === 'additionalProperties');
  if (extra) {
    const names = extra.params.additionalProperties as string[] | undefined;
    return `${fieldName(extra.instancePath, names?.[0])}: is not a known field`;
  }
  const missing = errors.find((e) => e.keyword === 'required');
  if (missing) {
    const names = missing.params.requiredProperties as string[] | undefined;
    return `${fieldName(missing.instancePath, names?.[0])}: is required`;
  }
  const first = errors.find((e) => e.instancePath !== '') ?? errors[0];
  if (!first) return `${part}: is invalid`;
  const node = schemaAt(root, first.instancePath);
  const field = fieldName(first.instancePath);
  return `${field}: ${node?.rule ?? ruleFromType(node)}`;
}

/**
 * A body whose only errors are inside the elements of its `items` array (POST /v1/qr/batch):
 * one message per broken element, in order, so a batch names every broken item as it does for
 * errors of content. Each element is checked on its own: the errors of the whole body stop at
 * TypeBox's maxErrors (8), which one item alone can fill. Null when anything else is wrong.
 */
function describeEachItem(root: SchemaNode, elements: Validator, errors: TbError[], part: string, value: unknown): string[] | null {
  if (errors.length === 0 || !errors.every((e) => /^\/items\/\d+(?:\/|$)/.test(e.instancePath))) return null;
  const items = (value as { items: unknown[] }).items;
  const out: string[] = [];
  items.forEach((item, i) => {
    if (elements.Check(item)) return;
    const itemErrors = (elements.Errors(item) as unknown as TbError[]).map((e) => ({ ...e, instancePath: `/items/${i}${e.instancePath}` }));
    out.push(describe(root, itemErrors, part, value));
  });
  return out;
}

/** `items[12].url`: array positions in brackets, object keys after dots. */
function fieldName(instancePath: string, child?: string): string {
  const parts = instancePath.split('/').filter(Boolean).map(unescapePointer);
  if (child !== undefined) parts.push(child);
  return parts.reduce((name, part) => (name && /^\d+$/.test(part) ? `${name}[${part}]` : name ? `${name}.${part}` : part), '') || 'body';
}

function unescapePointer(s: string): string {
  return s.replace(/~1/g, '/').replace(/~0/g, '~');
}

function schemaAt(root: SchemaNode, instancePath: string): SchemaNode | undefined {
  let node: SchemaNode | undefined = root;
  for (const key of instancePath.split('/').filter(Boolean).map(unescapePointer)) {
    node = /^\d+$/.test(key) && node?.items ? node.items : node?.properties?.[key];
  }
  return node;
}

function ruleFromType(node: SchemaNode | undefined): string {
  switch (node?.type) {
    case 'boolean':
      return 'must be true or false';
    case 'string':
      return 'must be a string';
    case 'integer':
      return 'must be an integer';
    case 'number':
      return 'must be a number';
    case 'object':
      return 'must be an object';
    default:
      return 'is invalid';
  }
}

/**
 * Path of the first string holding NUL or a lone surrogate, or null. Walks with an explicit
 * stack: bodies are depth-limited when parsed, but this must not overflow on any value. Paths
 * are built only once a bad string is known to be there: every body passes here, and naming
 * each of 100,000 values on the way cost more than checking them.
 */
function pathOfUnstorable(root: unknown): string | null {
  if (!holdsUnstorable(root)) return null;
  const stack: [unknown, string][] = [[root, '']];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [value, path] = next;
    if (typeof value === 'string') {
      if (unstorable(value)) return path;
    } else if (typeof value === 'object' && value !== null) {
      // Named as every other message names them: items[0].title, tags[0].
      const entries = Object.entries(value);
      const array = Array.isArray(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, v] = entries[i] as [string, unknown];
        stack.push([v, array ? `${path}[${k}]` : path ? `${path}.${k}` : k]);
      }
    }
  }
  return null;
}

function holdsUnstorable(root: unknown): boolean {
  const stack: unknown[] = [root];
  for (let value = stack.pop(); value !== undefined || stack.length > 0; value = stack.pop()) {
    if (typeof value === 'string') {
      if (unstorable(value)) return true;
    } else if (Array.isArray(value)) {
      for (const v of value) stack.push(v);
    } else if (typeof value === 'object' && value !== null) {
      for (const k in value) if (Object.hasOwn(value, k)) stack.push((value as Record<string, unknown>)[k]);
    }
  }
  return false;
}

function unstorable(s: string): boolean {
  return s.includes('\u0000') || !s.isWellFormed();
}

/** Strict conversion of query/param strings by the declared property type. */
function convertStrings(root: SchemaNode, input: unknown): unknown {
  if (typeof input !== 'object' || input === null || !root.properties) return input;
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(input as Record<string, unknown>)) {
    const prop = root.properties[key];
    out[key] = prop && typeof raw === 'string' ? convertOne(prop, raw) : raw;
  }
  return out;
}

function convertOne(prop: SchemaNode, raw: string): unknown {
  // UUIDs are case-insensitive (RFC 9562); ids are stored lower-case.
  if (prop.format === 'uuid') return raw.toLowerCase();
  if (prop.type === 'integer' && /^-?\d{1,15}$/.test(raw)) return Number(raw);
  if (prop.type === 'number' && /^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if (prop.type === 'boolean' && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}
