// The short link /r/{code}: resolve (from memory where possible) → record the scan →
// answer. Written against plain request/response values so that two thin adapters
// share it: the Fastify route (used by app.inject and any server built by buildApp)
// and the listening server's fast path, which answers /r/* before Fastify's routing
// and reply machinery, because this is the one request that must be as cheap as a
// bare redirect. Never rate limited, never cached by browsers or proxies, never indexed.
import { type TrustFunction, clientAddress } from '../request/client-address.ts';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { ShortLinkHealth } from './failure-watch.ts';
import type { ShortLinkTarget } from '../../db/qr-items/qr-items-repository.ts';
import { isShortCode } from '../../domain/qr-items/short-code.ts';
import type { AppServices } from '../../services.ts';
import {
  type RenderedPage,
  renderGonePage,
  renderLandingPage,
  renderNotFoundPage,
  renderVcf,
  vcfContentDisposition,
} from '../pages/index.ts';

export interface ShortLinkRequest {
  method: string;
  /** What follows /r/: a code, or a code plus ".vcf". */
  code: string;
  headers: IncomingHttpHeaders;
  ip: string;
}

export interface ShortLinkResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type ShortLinkHandler = (req: ShortLinkRequest) => Promise<ShortLinkResponse>;

const REDIRECTED = new Set(['url', 'whatsapp', 'email']);
/** On every answer under /r/: each scan reaches the server, and no search engine lists a short link. */
export const SHORT_LINK_HEADERS = { 'cache-control': 'no-store', 'x-robots-tag': 'noindex' } as const;

/** The answer while the database cannot be read: a scanner may try again in a moment. */
const UNAVAILABLE: ShortLinkResponse = {
  status: 503,
  headers: { ...SHORT_LINK_HEADERS, 'content-type': 'text/plain; charset=utf-8', 'retry-after': '5' },
  body: 'This link cannot be opened right now; please try again in a moment.',
};

export function createShortLinkHandler(services: AppServices, health: ShortLinkHealth): ShortLinkHandler {
  return async (req) => {
    const vcf = req.code.endsWith('.vcf');
    const code = vcf ? req.code.slice(0, -4) : req.code;
    let target: ShortLinkTarget | null;
    try {
      target = isShortCode(code) ? await services.links.resolve(code) : null;
    } catch (err) {
      health.lookups.failed(err);
      return UNAVAILABLE;
    }
    if (!target || (!target.active && !target.deleted)) return page(renderNotFoundPage());
    if (target.deleted) return page(renderGonePage());
    if (vcf) return contactCard(target);
    try {
      await services.tracker.track(target, req);
    } catch (err) {
      // A scanner standing in front of a poster still gets where they are going; the failure
      // is logged (a line every 10 s while it lasts) and GET /readyz answers 503.
      health.scans.failed(err, { code });
    }
    if (REDIRECTED.has(target.contentType)) return { status: 302, headers: { ...SHORT_LINK_HEADERS, location: target.payload }, body: '' };
    const landing = renderLandingPage({ title: target.title, code: target.code, payload: target.payload, contentType: target.contentType });
    return page(landing ?? renderNotFoundPage());
  };
}

function page(p: RenderedPage): ShortLinkResponse {
  return {
    status: p.status,
    headers: {
      ...SHORT_LINK_HEADERS,
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': p.csp,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    },
    body: p.html,
  };
}

/** The contact card download: not a scan (the scan was the page that offered it). */
function contactCard(target: ShortLinkTarget): ShortLinkResponse {
  if (target.contentType !== 'vcard') return page(renderNotFoundPage());
  return {
    status: 200,
    headers: {
      ...SHORT_LINK_HEADERS,
      'content-type': 'text/vcard; charset=utf-8',
      'content-disposition': vcfContentDisposition(target.payload, target.title),
      'x-content-type-options': 'nosniff',
    },
    body: renderVcf(target.payload, target.title),
  };
}

/** The listening server's adapter: answers GET/HEAD /r/* on the raw request, or returns false. */
export function rawShortLinkResponder(handle: ShortLinkHandler, trust: TrustFunction | false, log: FastifyBaseLogger) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = req.url ?? '';
    if (!url.startsWith('/r/') || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    const end = url.search(/[?#]/);
    const raw = url.slice(3, end === -1 ? undefined : end).replace(/\/$/, '');
    let code: string;
    try {
      code = decodeURIComponent(raw);
    } catch {
      code = '';
    }
    handle({ method: req.method, code, headers: req.headers, ip: clientAddress(req, trust) }).then(
      (r) => {
        res.writeHead(r.status, { ...r.headers, 'content-length': Buffer.byteLength(r.body) });
        res.end(r.body);
      },
      (err: unknown) => {
        log.error({ err }, 'short link failed');
        res.writeHead(500, { 'content-type': 'text/plain', ...SHORT_LINK_HEADERS });
        res.end('internal error');
      },
    );
    return true;
  };
}
