// Serves the browser app (built into dist/web) under /app/: hashed assets with long
// caching, compressed at build time (brotli or gzip, as the browser accepts), every other /app path gets index.html (the app routes in the browser), and
// `/` redirects to /app/. A strict CSP: scripts, styles and fetches from this origin only.
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { PROJECT_ROOT } from '../../project-root.ts';

export const DEFAULT_WEB_DIR = path.join(PROJECT_ROOT, 'dist', 'web');

export const APP_CSP = [
  "default-src 'none'",
  // WebAssembly (the studio's scan check) may compile; eval of JavaScript stays forbidden.
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export async function webAppRoutes(app: FastifyInstance, opts: { dir?: string } = {}): Promise<void> {
  const dir = opts.dir ?? DEFAULT_WEB_DIR;
  app.get('/', { schema: { hide: true } }, (_req, reply) => reply.redirect('/app/', 302));

  const readIndex = indexReader(path.join(dir, 'index.html'));
  const page = (_req: unknown, reply: FastifyReply) => {
    const index = readIndex();
    if (index === null) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built yet: run `npm run build` (`npm start` builds it when needed).\n');
    }
    return (
      reply
        .header('Content-Security-Policy', APP_CSP)
        .header('Cache-Control', 'no-cache')
        .header('X-Content-Type-Options', 'nosniff')
        .header('X-Frame-Options', 'DENY')
        // One-time links carry their token in the path: it must never leave in a Referer.
        .header('Referrer-Policy', 'no-referrer')
        .type('text/html; charset=utf-8')
        .send(index)
    );
  };
  app.get('/app', { schema: { hide: true } }, page);
  app.get('/app/*', { schema: { hide: true } }, page);

  // Unknown assets answer 404 (through the not-found handler), never index.html. Files are
  // looked up per request, so assets built after the start are served too. The build wrote
  // `.br` and `.gz` beside each asset that compresses (scripts/build.mjs): a phone on mobile data
  // gets a third of the bytes, and nothing is compressed per request.
  await app.register(fastifyStatic, {
    preCompressed: true,
    // @fastify/static names the encoding but not that the answer depends on Accept-Encoding:
    // without Vary a shared cache could hand brotli to a client that never asked for it.
    setHeaders: (res) => res.setHeader('Vary', 'Accept-Encoding'),
    root: path.join(dir, 'assets'),
    prefix: '/app/assets/',
    decorateReply: false,
    immutable: true,
    maxAge: '365d',
    index: false,
    schemaHide: true,
  });
}

/**
 * index.html as last read, read again when the file changed: a rebuild of dist/web under a
 * running server (a deploy into the same folder) replaces the hashed scripts it names, and
 * the old page would load none of them. A stat at most once per `checkEveryMs` keeps this
 * off the cost of each page load. While a rebuild has removed the file, the last copy stays.
 */
function indexReader(file: string, checkEveryMs = 1000): () => Buffer | null {
  let body: Buffer | null = null;
  let version = '';
  let checkedAt = Number.NEGATIVE_INFINITY;
  return () => {
    const now = Date.now();
    if (now - checkedAt < checkEveryMs) return body;
    checkedAt = now;
    try {
      const stat = fs.statSync(file);
      const seen = `${stat.mtimeMs}:${stat.size}`;
      if (seen !== version) {
        body = fs.readFileSync(file);
        version = seen;
      }
    } catch {
      // not built yet, or being rebuilt
    }
    return body;
  };
}
