// GET/HEAD /r/{code} and /r/{code}.vcf: the links printed QR codes point to.
// Resolve (from memory where possible) → record the scan → answer. Never rate
// limited, never cached by browsers or proxies, never indexed.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ShortLinkTarget } from '../../db/qr-items-repository.ts';
import { isShortCode } from '../../domain/short-code.ts';
import type { AppServices } from '../../services.ts';
import { type RenderedPage, renderGonePage, renderLandingPage, renderNotFoundPage, renderVcf, vcfContentDisposition } from '../pages/index.ts';

const REDIRECTED = new Set(['url', 'whatsapp', 'email']);

export const shortLinkRoutes: FastifyPluginAsync<{ services: AppServices }> = async (app, { services }) => {
  app.get('/r/:code', { schema: { hide: true } }, async (req: FastifyRequest<{ Params: { code: string } }>, reply) => {
    reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex');
    const raw = req.params.code;
    const vcf = raw.endsWith('.vcf');
    const code = vcf ? raw.slice(0, -4) : raw;
    const target = isShortCode(code) ? await services.links.resolve(code) : null;
    if (!target || (!target.active && !target.deleted)) return sendPage(reply, renderNotFoundPage());
    if (target.deleted) return sendPage(reply, renderGonePage());
    if (vcf) return sendVcf(reply, target);

    try {
      await services.tracker.track(target.id, { method: req.method, headers: req.headers, ip: req.ip });
    } catch (err) {
      // A scanner standing in front of a poster still gets where they are going; the failure is logged loudly.
      req.log.error({ err, code }, 'scan not recorded');
    }
    if (REDIRECTED.has(target.contentType)) return reply.redirect(target.payload, 302);
    const page = renderLandingPage({ title: target.title, code: target.code, payload: target.payload, contentType: target.contentType });
    return sendPage(reply, page ?? renderNotFoundPage());
  });
};

function sendPage(reply: FastifyReply, page: RenderedPage) {
  return reply
    .code(page.status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', page.csp)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .send(page.html);
}

/** The contact card download: not a scan (the scan was the page that offered it). */
function sendVcf(reply: FastifyReply, target: ShortLinkTarget) {
  if (target.contentType !== 'vcard') return sendPage(reply, renderNotFoundPage());
  return reply
    .header('content-type', 'text/vcard; charset=utf-8')
    .header('content-disposition', vcfContentDisposition(target.payload, target.title))
    .header('x-content-type-options', 'nosniff')
    .send(renderVcf(target.payload, target.title));
}
