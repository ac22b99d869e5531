// QR images: GET /v1/qr/{id}/image.svg|png|pdf and POST /v1/qr/preview.
// The image encodes exactly the item's shortUrl; the ETag is a hash of everything
// drawn, so an unchanged design answers 304 and a changed one never hits a stale cache.
import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { type QrDesign, LIMITS, resolveDesign } from '../../domain/design/design.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { designPatchOf } from '../../domain/qr-items/qr-item.ts';
import { parseLogosOf } from '../../domain/design/request-logos.ts';
import { LruCache } from '../../domain/scans/lru-cache.ts';
import { shortUrlFor, shortUrlOf } from '../../domain/qr-items/short-code.ts';
import type { AppServices } from '../../services.ts';
import { accountOf } from '../auth/api-key-auth.ts';
import { attachment } from '../downloads/content-disposition.ts';
import { ErrorResponse, IdParams, TabAccountQuery, authErrors } from '../schemas/common.ts';
import { PreviewBody } from '../schemas/qr-items.ts';
import { SAMPLE_CODE } from '../../domain/qr-items/sample-short-link.ts';

type Format = 'svg' | 'png' | 'pdf';

/** Bump when the renderer's output changes, so clients drop images cached under old ETags. */
const RENDERER_VERSION = '2';
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";
const PDF_WIDTH_MM = LIMITS.pdfWidthMm;

const Download = Type.Optional(
  Type.Integer({
    minimum: 0,
    maximum: 1,
    rule: 'must be 0 or 1',
    description: '1: answer with Content-Disposition: attachment and a file name made from the title',
  }),
);
const SizeQuery = Type.Object(
  {
    download: Download,
    size: Type.Optional(
      Type.Integer({
        minimum: LIMITS.resolution.min,
        maximum: LIMITS.resolution.max,
        rule: `must be an integer between ${LIMITS.resolution.min} and ${LIMITS.resolution.max}`,
        description: 'Width in pixels; overrides the design resolution',
      }),
    ),
    v: Type.Optional(
      Type.String({
        maxLength: 64,
        rule: 'must be a string of at most 64 characters',
        description:
          "Not read: a version such as the item's updatedAt, so an edited design gets a new address and no cache shows the old image",
      }),
    ),
    account: TabAccountQuery,
  },
  { additionalProperties: false },
);
const PdfQuery = Type.Object(
  {
    download: Download,
    size: Type.Optional(
      Type.Number({
        minimum: PDF_WIDTH_MM.min,
        maximum: PDF_WIDTH_MM.max,
        rule: `must be a number of millimetres between ${PDF_WIDTH_MM.min} and ${PDF_WIDTH_MM.max}`,
        description: `Page width in millimetres (default ${PDF_WIDTH_MM.default}); the height follows the frame`,
      }),
    ),
    v: SizeQuery.properties.v,
    account: TabAccountQuery,
  },
  { additionalProperties: false },
);
const PreviewQuery = Type.Object(
  {
    format: Type.Optional(
      Type.Enum(['svg', 'png', 'pdf'], {
        rule: 'must be one of svg, png, pdf',
        description: 'Default svg; pdf: a print-ready page `mm` millimetres wide (the studio downloads static codes this way)',
      }),
    ),
    size: SizeQuery.properties.size,
    mm: Type.Optional(
      Type.Number({
        minimum: PDF_WIDTH_MM.min,
        maximum: PDF_WIDTH_MM.max,
        rule: `must be a number of millimetres between ${PDF_WIDTH_MM.min} and ${PDF_WIDTH_MM.max}`,
        description: `With format=pdf: the page width in millimetres (default ${PDF_WIDTH_MM.default})`,
      }),
    ),
    download: Download,
  },
  { additionalProperties: false },
);
const CONTENT_TYPES: Record<Format, string> = { svg: 'image/svg+xml; charset=utf-8', png: 'image/png', pdf: 'application/pdf' };
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
const pdfResponses = {
  ...imageResponses,
  200: {
    description: 'A one-page PDF exactly `size` millimetres wide: the drawing of image.svg as vector paths (logos as images)',
    content: { 'application/pdf': { schema: Type.String({ format: 'binary' }) } },
  },
};

const previewResponses = {
  ...imageResponses,
  200: {
    description: 'The image: image/svg+xml, image/png or (format=pdf) application/pdf',
    content: { ...imageResponses[200].content, 'application/pdf': { schema: Type.String({ format: 'binary' }) } },
  },
};

/** What to draw and how the answer is named. */
interface ImageRequest {
  format: Format;
  data: string;
  design: QrDesign;
  /** Pixels for svg and png, millimetres for pdf. */
  size: number | undefined;
  /** Title for the download file name, null for the preview. */
  download: { title: string; fallback: string } | null;
}

const IMAGE_CACHE_BYTES = 32 * 1024 * 1024;

export const imageRoutes: FastifyPluginAsyncTypebox<{ services: AppServices }> = async (app, { services }) => {
  // Rendering a 2500 px PNG takes real CPU time; the same image is often asked for twice. Bounded
  // by bytes, not by count: 64 large PNGs or PDFs would hold hundreds of megabytes.
  const rendered = new LruCache<string, Buffer>(IMAGE_CACHE_BYTES, { weigh: (b) => b.byteLength, maxEntryWeight: IMAGE_CACHE_BYTES / 8 });

  const send = async (req: FastifyRequest, reply: FastifyReply, image: ImageRequest) => {
    const { format, data, design } = image;
    const size = image.size ?? (format === 'pdf' ? PDF_WIDTH_MM.default : design.resolution);
    const etag = `"${createHash('sha256')
      .update(JSON.stringify([RENDERER_VERSION, format, data, size, design]))
      .digest('base64url')
      .slice(0, 27)}"`;
    const fresh = matches(req.headers['if-none-match'], etag);
    // Per account: a shared entry answered another tenant's identical image at once, which told
    // them (by timing) that someone had drawn it.
    const cacheKey = `${req.auth?.accountId ?? ''}:${etag}`;
    let body = fresh ? undefined : rendered.get(cacheKey);
    if (!fresh && !body) {
      // In a worker, within the render budget: a costly design never holds up the event loop.
      const job = format === 'pdf' ? { kind: format, data, design, widthMm: size } : { kind: format, data, design, width: size };
      const out = await services.renderer.render(job, { account: accountOf(req), lane: 'interactive' });
      body = typeof out === 'string' ? Buffer.from(out, 'utf8') : out;
      rendered.set(cacheKey, body);
    }
    reply
      .header('etag', etag)
      .header('cache-control', 'private, max-age=300')
      .header('x-content-type-options', 'nosniff')
      .header('content-type', CONTENT_TYPES[format]);
    if (format === 'svg') reply.header('content-security-policy', SVG_CSP);
    if (image.download) reply.header('content-disposition', attachment(image.download.title, image.download.fallback, format));
    return fresh ? reply.code(304).send() : reply.send(body);
  };

  for (const format of ['svg', 'png', 'pdf'] as const) {
    app.get(
      `/qr/:id/image.${format}`,
      {
        config: { scope: 'qr:read' },
        schema: {
          operationId: `getQrImage${format[0]?.toUpperCase()}${format.slice(1)}`,
          summary:
            format === 'pdf'
              ? "The item's QR code as a print-ready vector PDF of an exact width in millimetres; encodes exactly its shortUrl"
              : `The item's QR code as ${format.toUpperCase()}, drawn with its design; encodes exactly its shortUrl`,
          tags: ['images'],
          params: IdParams,
          querystring: format === 'pdf' ? PdfQuery : SizeQuery,
          response: format === 'pdf' ? pdfResponses : imageResponses,
        },
      },
      async (req, reply) => {
        const item = await services.items.find(accountOf(req), req.params.id);
        if (!item) throw new NotFoundError('QR item not found');
        const query = req.query as { size?: number; download?: number };
        return send(req, reply, {
          format,
          data: shortUrlOf(item, services.addresses),
          design: item.design,
          size: query.size,
          download: query.download === 1 ? { title: item.title, fallback: `qr-${item.code}` } : null,
        });
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
        response: previewResponses,
      },
    },
    async (req, reply) => {
      const body = req.body ?? {};
      // A preview's logo is parsed off the main thread but not trialled: nothing is stored.
      const who = { account: accountOf(req), lane: 'interactive' } as const;
      const logos = await parseLogosOf(body, (field, logo) => services.renderer.parseLogo(field, logo, null, who));
      const design = resolveDesign(undefined, designPatchOf(body, logos));
      const data = body.data ?? shortUrlFor(services.addresses.publicUrl(), SAMPLE_CODE);
      const download = req.query.download === 1 ? { title: 'QR preview', fallback: 'qr-preview' } : null;
      const format = req.query.format ?? 'svg';
      return send(req, reply, { format, data, design, size: format === 'pdf' ? req.query.mm : req.query.size, download });
    },
  );
};

function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header === '*' || header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}
