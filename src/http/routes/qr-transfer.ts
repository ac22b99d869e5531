// Import (CSV) and export (CSV or JSON) of an account's codes; both stream.
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { IMAGES_PAGE, exportImagesZip } from '../../bulk/export-images.ts';
import { LIMITS } from '../../domain/design/design.ts';
import { importCodes } from '../../bulk/import-codes.ts';
import type { BulkJobKind } from '../../bulk/running-jobs.ts';
import { CONTENT_TYPES } from '../../domain/payload/index.ts';
import { normalizeTag } from '../../domain/qr-items/tags.ts';
import type { AppServices } from '../../services.ts';
import { accountOf } from '../auth/api-key-auth.ts';
import { Enum, named } from '../../domain/schema-kit.ts';
import { ErrorResponse, authErrors, errorAnswer } from '../schemas/common.ts';
import { utf8Body } from '../request/utf8-body.ts';

/** A CSV upload is read whole before it is validated; 16 MiB is some 100,000 codes. Larger files: the CLI. */
const IMPORT_BODY_LIMIT = 16 * 1024 * 1024;

const exportRunning = errorAnswer('An export of this account (CSV, JSON or ZIP) is still running: one at a time per account');
const importRunning = errorAnswer('An import of this account is still running: one at a time per account');

const ExportQuery = Type.Object(
  {
    format: Type.Optional(Type.Enum(['csv', 'json'], { rule: 'must be csv or json', description: 'Default csv' })),
    active: Type.Optional(Type.Boolean({ rule: 'must be true or false' })),
    contentType: Type.Optional(Enum(CONTENT_TYPES)),
    q: Type.Optional(Type.String({ maxLength: 200, rule: 'must be a string of at most 200 characters' })),
    tag: Type.Optional(Type.String({ maxLength: 64, rule: 'must be a string of at most 64 characters' })),
  },
  { additionalProperties: false },
);

const { format: _csvOrJson, ...filterProperties } = ExportQuery.properties;
const ImagesQuery = Type.Object(
  {
    format: Type.Optional(Type.Enum(['png', 'svg'], { rule: 'must be png or svg', description: 'Default png' })),
    size: Type.Optional(
      Type.Integer({
        minimum: LIMITS.resolution.min,
        maximum: LIMITS.resolution.max,
        rule: `must be an integer between ${LIMITS.resolution.min} and ${LIMITS.resolution.max}`,
        description: "Width in pixels; default each code's resolution",
      }),
    ),
    ...filterProperties,
  },
  { additionalProperties: false },
);

export const qrTransferRoutes: FastifyPluginAsyncTypebox<{ services: AppServices }> = async (app, { services }) => {
  app.addContentTypeParser('text/csv', { parseAs: 'buffer', bodyLimit: IMPORT_BODY_LIMIT }, (req, body, done) => {
    const text = utf8Body(req, body as Buffer);
    if (text instanceof Error) done(text, undefined);
    else done(null, text);
  });

  app.get(
    '/qr/export',
    {
      config: { scope: 'qr:read' },
      schema: {
        summary: 'Export the codes (with short links and scan totals) as CSV or JSON, streamed',
        description:
          'Same filters as the list; newest first. CSV columns: id, code, shortUrl, title, contentType, payload, active, tags (separated by |), scanCount, createdAt, updatedAt, design (JSON); a cell starting with = + - @, a tab or a carriage return (or apostrophes before one) gets an apostrophe in front, which the import takes off again. JSON: {"items": [QrItem, …]}.',
        tags: ['qr'],
        querystring: ExportQuery,
        produces: ['text/csv', 'application/json'],
        response: { 200: Type.String({ description: 'The file' }), ...authErrors, 409: exportRunning },
      },
    },
    async (req, reply) => {
      const { format = 'csv', active, contentType, q, tag } = req.query;
      const filter = { active, contentType, q, tag: tag === undefined ? undefined : normalizeTag(tag) };
      const account = accountOf(req);
      // Its first page is read before the answer begins: a busy read pool answers 503 here.
      const stream = await whileRunning(services, account, 'export', `a ${format.toUpperCase()} export`, () =>
        services.reads.exportCodes(account, filter, format, services.addresses.table()),
      );
      // The answer is a stream, not the string the schema documents: the untyped reply sends it as is.
      const raw: FastifyReply = reply;
      return raw
        .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="qr-codes.${format}"`)
        .send(stream);
    },
  );

  app.get(
    '/qr/export.zip',
    {
      config: { scope: 'qr:read' },
      schema: {
        summary: 'A ZIP of the images of the codes a filter selects (a tag selects a batch), streamed',
        description:
          'One file per code, named after its title and code (`spring-menu-Ab3dE9z.png`), each exactly what image.png or image.svg gives. Images are drawn one at a time in the render pool. A code whose image cannot be drawn is listed in `errors.txt` at the end of the archive instead.',
        tags: ['qr'],
        querystring: ImagesQuery,
        produces: ['application/zip'],
        response: { 200: Type.String({ description: 'The ZIP file' }), ...authErrors, 409: exportRunning },
      },
    },
    async (req, reply) => {
      const { format = 'png', size, active, contentType, q, tag } = req.query;
      const filter = { active, contentType, q, tag: tag === undefined ? undefined : normalizeTag(tag) };
      const account = accountOf(req);
      const zip = await whileRunning(services, account, 'export', `a ZIP export of ${format.toUpperCase()} images`, () =>
        exportImagesZip(services.reads.codePages(account, filter, IMAGES_PAGE), services.renderer, services.addresses, {
          filter,
          format,
          size,
        }),
      );
      const raw: FastifyReply = reply;
      return raw.type('application/zip').header('content-disposition', `attachment; filename="qr-codes-${format}.zip"`).send(zip);
    },
  );

  app.post(
    '/qr/import',
    {
      bodyLimit: IMPORT_BODY_LIMIT,
      config: { scope: 'qr:write', bodyType: 'text/csv' },
      // A JSON body would otherwise reach the schema and be told it is not a string.
      preValidation: async (req, reply) => {
        if (!/^text\/csv\b/i.test(req.headers['content-type'] ?? ''))
          await reply.code(415).send({ error: 'Content-Type: must be text/csv' });
      },
      schema: {
        summary: 'Import codes from CSV (one row per code); nothing is stored unless every row is valid',
        description:
          'Columns: title (required), contentType, payload, the typed fields (url, wifiSsid, …), the flat design options, design (a JSON object), tags (separated by |). An exported file imports as is (id, code, shortUrl, active, scanCount, createdAt and updatedAt are skipped). A bad row answers 400 naming its line; an unknown column answers 400.',
        tags: ['qr'],
        consumes: ['text/csv'],
        body: Type.String({ description: 'CSV, UTF-8, with a header row' }),
        response: {
          201: named('ImportResult', Type.Object({ created: Type.Integer({ minimum: 0 }) })),
          ...authErrors,
          409: importRunning,
          413: ErrorResponse,
          415: ErrorResponse,
        },
      },
    },
    async (req, reply) => {
      const body = req.body;
      const account = accountOf(req);
      const done = await services.bulkJobs.start(account, 'import', 'a CSV import');
      try {
        const summary = await importCodes(services.db, account, () => Readable.from(slices(body)), {
          publicBaseUrl: services.addresses.publicUrl(),
          domainId: (await services.domains.activeDefault(account))?.id ?? null,
          maxCodes: services.config.maxCodesPerAccount,
          parseLogo: (field, logo) => services.renderer.parseLogo(field, logo, LIMITS.resolution.max, { account, lane: 'bulk' }),
        });
        return await reply.code(201).send(summary);
      } finally {
        await done();
      }
    },
  );
};

/**
 * An export's stream, counted as the account's running export from before its first piece is
 * made until its last piece is read or the stream is closed (the client went away).
 */
async function whileRunning<T>(
  services: AppServices,
  account: string,
  kind: BulkJobKind,
  what: string,
  pieces: () => AsyncGenerator<T> | Promise<AsyncGenerator<T>>,
): Promise<Readable> {
  const done = await services.bulkJobs.start(account, kind, what);
  let source: AsyncGenerator<T>;
  try {
    source = await pieces();
  } catch (err) {
    await done();
    throw err;
  }
  async function* held(): AsyncGenerator<T> {
    try {
      yield* source;
    } finally {
      await done();
    }
  }
  // A stream closed before its first read never runs the generator's `finally`.
  return Readable.from(held()).once('close', () => void done());
}

/**
 * The body in pieces of 8 KiB, with a turn of the event loop between them: the CSV parser works
 * through each piece in one go (with line numbers, some 10 µs a row), so a piece is as long a
 * stretch of the short links' thread. 64 KiB pieces of short rows were some 1,600 rows, 15–25 ms
 * at once, twice per import (docs/big-accounts.md, docs/performance.md).
 */
const CSV_PIECE = 8_192;
async function* slices(text: string): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += CSV_PIECE) {
    if (i > 0) await nextTurn();
    yield text.slice(i, i + CSV_PIECE);
  }
}
