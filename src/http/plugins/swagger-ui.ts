// The human API reference at /docs (Swagger UI over the same document as /v1/openapi.json).
// Two things the plugin leaves undone: its page has no viewport meta tag, so phones draw it
// at desktop width; and its default CSP blocks the style attributes Swagger UI's React code
// sets (console errors, lost styling) while allowing any https: stylesheet or font and
// upgrading requests to https (which breaks the page on a plain-http LAN address).
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

/** Scripts and style sheets come only from us; style *attributes* are allowed, nothing else inline. */
export const DOCS_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self'",
  "style-src-elem 'self'",
  "style-src-attr 'unsafe-inline'",
].join('; ');

const VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">';

// Served as a file (theme/docs.css), so the CSP needs no inline <style>.
const DOCS_CSS = `
@media (max-width: 600px) {
  .swagger-ui .wrapper { padding: 0 10px; }
  .swagger-ui .info { margin: 24px 0; }
  .swagger-ui .info .title { font-size: 28px; }
  .swagger-ui .opblock .opblock-summary { flex-wrap: wrap; }
  .swagger-ui .opblock .opblock-summary-path { max-width: 100%; word-break: break-all; }
  .swagger-ui .opblock .opblock-summary-description { flex-basis: 100%; order: 3; padding: 4px 0 0; }
  .swagger-ui .scheme-container .schemes { flex-wrap: wrap; gap: 12px; }
  .swagger-ui table { display: block; overflow-x: auto; }
  .swagger-ui .highlight-code, .swagger-ui .microlight { max-width: calc(100vw - 60px); overflow-x: auto; }
}
`;

export async function registerDocs(app: FastifyInstance): Promise<void> {
  await app.register(async (docs) => {
    // Only the Swagger UI routes (inside this plugin) get the viewport tag added.
    docs.addHook('onSend', async (_req, reply, payload) => {
      if (typeof payload !== 'string' || !String(reply.getHeader('content-type')).startsWith('text/html')) return payload;
      return payload.replace(/<meta charset="UTF-8">/i, (m) => `${m}\n      ${VIEWPORT}`);
    });
    // The plugin sends /docs/static/index.html to /docs/ by rewriting the URL's end, which a
    // query string (…/index.html?x) defeats: it redirected to itself, forever.
    docs.addHook('onRequest', async (req, reply) => {
      const [path = '', query] = req.url.split('?');
      if (query !== undefined && path === '/docs/static/index.html') return reply.redirect(`/docs/?${query}`);
    });
    await docs.register(swaggerUi, {
      routePrefix: '/docs',
      staticCSP: DOCS_CSP,
      theme: { title: 'qrtrack API', css: [{ filename: 'docs.css', content: DOCS_CSS }] },
      // BaseLayout: no topbar. It only offers to explore other documents, and its logo is an
      // SVG with an inline <style> the CSP would (rightly) block.
      uiConfig: { deepLinking: true, validatorUrl: null, layout: 'BaseLayout' },
    });
  });
}
