// Serves the browser app (built into dist/web) under /app/: hashed assets with long
// caching, every other /app path gets index.html (the app routes in the browser), and
// `/` redirects to /app/. A strict CSP: scripts, styles and fetches from this origin only.
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

export const DEFAULT_WEB_DIR = path.resolve(import.meta.dirname, '../../dist/web');

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

  const indexFile = path.join(dir, 'index.html');
  const index = fs.existsSync(indexFile) ? fs.readFileSync(indexFile) : null;
  const page = (_req: unknown, reply: FastifyReply) => {
    if (index === null) {
      return reply.code(503).type('text/plain; charset=utf-8').send('The web app is not built yet: run `npm start` (or `npm run build:web`).\n');
    }
    return reply
      .header('Content-Security-Policy', APP_CSP)
      .header('Cache-Control', 'no-cache')
      .header('X-Content-Type-Options', 'nosniff')
      .header('X-Frame-Options', 'DENY')
      // One-time links carry their token in the path: it must never leave in a Referer.
      .header('Referrer-Policy', 'no-referrer')
      .type('text/html; charset=utf-8')
      .send(index);
  };
  app.get('/app', { schema: { hide: true } }, page);
  app.get('/app/*', { schema: { hide: true } }, page);

  // Unknown assets answer 404 (through the not-found handler), never index.html.
  const assets = path.join(dir, 'assets');
  if (fs.existsSync(assets)) {
    await app.register(fastifyStatic, { root: assets, prefix: '/app/assets/', decorateReply: false, immutable: true, maxAge: '365d', index: false, schemaHide: true });
  } else {
    app.get('/app/assets/*', { schema: { hide: true } }, (req, reply) => reply.callNotFound());
  }
}
