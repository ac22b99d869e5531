// QR images: GET /v1/qr/{id}/image.svg|png and POST /v1/qr/preview.
// The image encodes exactly the item's shortUrl; the ETag is a hash of everything
// drawn, so an unchanged design answers 304 and a changed one never hits a stale cache.
import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { type DesignPatch, type QrDesign, LIMITS, resolveDesign } from '../../domain/design.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { designPatchOf } from '../../domain/qr-item.ts';
import { LruCache } from '../../domain/scans/lru-cache.ts';
import { shortUrlFor } from '../../domain/short-code.ts';
import type { AppServices } from '../../services.ts';
import { accountOf } from '../auth.ts';
import { parseLogosInPool } from '../logo-prepass.ts';
import { ErrorResponse, IdParams, PreviewBody, authErrors } from '../schemas.ts';

type Format = 'svg' | 'png';

/** Bump when the renderer's output changes, so clients drop images cached under old ETags. */
const RENDERER_VERSION = '1';
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";
const SAMPLE_CODE = 'AbCdE12';

const SizeQuery = Type.Object(
  {
    size: Type.Optional(
      Type.Integer({
        minimum: LIMITS.resolution.min,
        maximum: LIMITS.resolution.max,
        rule: `must be an integer between ${LIMITS.resolution.min} and ${LIMITS.resolution.max}`,
        description: 'Width in pixels; overrides the design resolution',
      }),
    ),
  },
  { additionalProperties: false },
);
const PreviewQuery = Type.Object(
  {
    format: Type.Optional(Type.Enum(['svg', 'png'], { rule: 'must be one of svg, png', description: 'Default svg' })),
    size: SizeQuery.properties.size,
  },
  { additionalProperties: false },
);
const imageResponses = {
  // Described by media type, so the document (and a client generated from it) knows these are not JSON.
  200: {
    description: 'The image: image/svg+xml for .svg and format=svg, image/png for .png and format=png',
    content: { 'image/svg+xml': { schema: Type.String() }, 'image/png': { schema: Type.String({ format: 'binary' }) } },
  },
  304: Type.Null({ description: 'Not modified (If-None-Match)' }),
  ...authErrors,
  404: ErrorResponse,
  503: ErrorResponse,
};

export const imageRoutes: FastifyPluginAsyncTypebox<{ services: AppServices }> = async (app, { services }) => {
  // Rendering a 2500 px PNG takes real CPU time; the same image is often asked for twice.
  const rendered = new LruCache<string, Buffer>(64);

  const send = async (req: FastifyRequest, reply: FastifyReply, format: Format, data: string, design: QrDesign, size: number | undefined) => {
    const width = size ?? design.resolution;
    const etag = `"${createHash('sha256').update(JSON.stringify([RENDERER_VERSION, format, data, width, design])).digest('base64url').slice(0, 27)}"`;
    const fresh = matches(req.headers['if-none-match'], etag);
    let body = fresh ? undefined : rendered.get(etag);
    if (!fresh && !body) {
      // In a worker, within the render budget: a costly design never holds up the event loop.
      const out = await services.renderer.render({ kind: format, data, design, width });
      body = typeof out === 'string' ? Buffer.from(out, 'utf8') : out;
      rendered.set(etag, body);
    }
    reply
      .header('etag', etag)
      .header('cache-control', 'private, max-age=300')
      .header('x-content-type-options', 'nosniff')
      .header('content-type', format === 'svg' ? 'image/svg+xml; charset=utf-8' : 'image/png');
    if (format === 'svg') reply.header('content-security-policy', SVG_CSP);
    return fresh ? reply.code(304).send() : reply.send(body);
  };

  for (const format of ['svg', 'png'] as const) {
    app.get(
      `/qr/:id/image.${format}`,
      {
        config: { scope: 'qr:read' },
        schema: {
          operationId: `getQrImage${format === 'svg' ? 'Svg' : 'Png'}`,
          summary: `The item's QR code as ${format.toUpperCase()}, drawn with its design; encodes exactly its shortUrl`,
          tags: ['images'],
          params: IdParams,
          querystring: SizeQuery,
          response: imageResponses,
        },
      },
      async (req, reply) => {
        const item = await services.items.find(accountOf(req), req.params.id);
        if (!item) throw new NotFoundError('QR item not found');
        return send(req, reply, format, shortUrlFor(services.config.publicBaseUrl, item.code), item.design, req.query.size);
      },
    );
  }

  app.post(
    '/qr/preview',
    {
      config: { scope: 'qr:read' },
      schema: {
        operationId: 'previewQr',
        summary: 'Render a design without storing anything (the studio live preview)',
        tags: ['images'],
        querystring: PreviewQuery,
        body: PreviewBody,
        response: imageResponses,
      },
    },
    async (req, reply) => {
      // The schema has checked every enum; the type provider only knows them as strings.
      const body = (req.body ?? {}) as DesignPatch & { design?: DesignPatch; data?: string };
      await parseLogosInPool(services.renderer, body, null);
      const design = resolveDesign(undefined, designPatchOf(body));
      const data = body.data ?? shortUrlFor(services.config.publicBaseUrl, SAMPLE_CODE);
      return send(req, reply, (req.query.format ?? 'svg') as Format, data, design, req.query.size);
    },
  );
};

function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header === '*' || header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}
