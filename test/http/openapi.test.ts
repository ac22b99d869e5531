// The OpenAPI document: valid OpenAPI 3.1, with named, reusable schemas that a generated
// client turns into named types, and request validation untouched by the naming.
import { Validator } from '@seriousme/openapi-schema-validator';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_NAME, named } from '../../src/domain/schema-kit.ts';
import { hoistNamedSchemas } from '../../src/http/schemas/openapi-components.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

interface Doc {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}
interface Operation {
  operationId?: string;
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}

let t: TestApp;
let doc: Doc;

beforeAll(async () => {
  t = await makeTestApp();
  const res = await t.request({ url: '/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  doc = res.json() as Doc;
});
afterAll(() => t.close());

function refsIn(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const v of node) refsIn(v, out);
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refsIn(v, out);
    }
  }
  return out;
}

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
  );

describe('the OpenAPI document', () => {
  it('passes an OpenAPI 3.1 validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it("names the spec's schemas as components and refers to them", () => {
    const names = Object.keys(doc.components.schemas);
    for (const name of ['QrItem', 'QrDesign', 'CreateQrRequest', 'Error', 'UpdateQrRequest', 'QrItemList', 'QrStats', 'ContentType']) {
      expect(names).toContain(name);
    }
    const create = doc.paths['/v1/qr']?.post;
    expect(create?.requestBody?.content['application/json']?.schema).toEqual({ $ref: '#/components/schemas/CreateQrRequest' });
    expect(create?.responses['201']?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/QrItemWithWarnings' });
    expect(doc.components.schemas.QrItem).toMatchObject({ properties: { design: { $ref: '#/components/schemas/QrDesign' } } });
  });

  it('describes every JSON body and JSON answer by a named schema, and every reference resolves', () => {
    for (const { name, op } of operations()) {
      const bodies = [op.requestBody?.content, ...Object.values(op.responses).map((r) => r.content)];
      for (const content of bodies) {
        const json = content?.['application/json']?.schema as { $ref?: string; type?: string } | undefined;
        const hint = `${name}: wrap its schema in named('SomeName', …) (src/domain/schema-kit.ts)`;
        // Objects and arrays are what a client needs named; a plain string answer (a file) is not.
        if (json && json.type !== 'null' && json.type !== 'string')
          expect(json.$ref ?? 'inline', hint).toMatch(/^#\/components\/schemas\/[A-Za-z]+$/);
      }
    }
    for (const ref of refsIn(doc)) {
      expect(doc.components.schemas[ref.replace('#/components/schemas/', '')], ref).toBeDefined();
    }
    expect(JSON.stringify(doc)).not.toContain(SCHEMA_NAME);
  });

  it('gives the QR operations operationIds, and no two operations the same one', () => {
    const ids = operations().flatMap(({ op }) => (op.operationId ? [op.operationId] : []));
    expect(ids).toEqual(
      expect.arrayContaining(['createQr', 'listQr', 'getQr', 'updateQr', 'deleteQr', 'getQrStats', 'getQrImagePng', 'previewQr']),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('still validates requests through the named schemas, nested ones included', async () => {
    const key = await t.key();
    const bad = await t.request({
      method: 'POST',
      url: '/v1/qr',
      key,
      payload: { title: 'x', url: 'example.com', design: { dotsStyle: 'hexagons' } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'design.dotsStyle: must be one of square, dots, rounded, extra-rounded, classy, classy-rounded' });
    const badQuery = await t.request({ url: '/v1/qr?contentType=fax', key });
    expect(badQuery.json()).toEqual({ error: 'contentType: must be one of url, wifi, vcard, whatsapp, text, email' });
  });
});

describe('hoisting named schemas', () => {
  it('puts one component per name and leaves the original schemas as they were', () => {
    const Point = named('Point', Type.Object({ x: Type.Number() }));
    const input = {
      paths: { '/a': { get: { responses: { 200: { content: { 'application/json': { schema: { type: 'array', items: Point } } } } } } } },
    };
    const out = hoistNamedSchemas(input);
    expect(out.paths['/a'].get.responses[200].content['application/json'].schema.items).toEqual({ $ref: '#/components/schemas/Point' });
    expect((out as unknown as Doc).components.schemas.Point).toEqual({
      type: 'object',
      required: ['x'],
      properties: { x: { type: 'number' } },
    });
    expect((Point as unknown as Record<string, unknown>)[SCHEMA_NAME]).toBe('Point');
  });

  it('refuses two different schemas under one name', () => {
    const a = named('Thing', Type.Object({ a: Type.String() }));
    const b = named('Thing', Type.Object({ b: Type.String() }));
    expect(() => hoistNamedSchemas({ x: a, y: b })).toThrow('two different schemas are named "Thing"');
  });
});
