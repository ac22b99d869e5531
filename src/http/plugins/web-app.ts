// Serves the browser app (built into dist/web) under /app/: hashed assets with long
// caching, compressed at build time (brotli or gzip, as the browser accepts), every other /app path gets index.html (the app routes in the browser), and
// `/` redirects to /app/. A strict CSP: scripts, styles and fetches from this origin only.
// The studio opened cold gets a page that names its files and, for "New code", shows its first
// preview before any script has run (../web-app/studio-page.ts).
import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PROJECT_ROOT } from '../../project-root.ts';
import type { AppServices } from '../../services.ts';
import type { AuthThrottle } from '../auth/auth-throttle.ts';
import { type Manifest, studioAssets } from '../web-app/app-manifest.ts';
import { pageSession } from '../web-app/page-session.ts';
import { firstPreview, inlineStyles, newCodeFirstPaint, studioLinks } from '../web-app/studio-page.ts';

export const DEFAULT_WEB_DIR = path.join(PROJECT_ROOT, 'dist', 'web');

/** The app's CSP; `styleSource` allows one inline stylesheet by its hash (the studio's first paint). */
export function appCsp(styleSource?: string): string {
  return [
    "default-src 'none'",
    // WebAssembly (the studio's scan check) may compile; eval of JavaScript stays forbidden.
    "script-src 'self' 'wasm-unsafe-eval'",
    styleSource === undefined ? "style-src 'self'" : `style-src 'self' ${styleSource}`,
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const APP_CSP = appCsp();

export interface WebAppOptions {
  dir?: string;
  /** With both, the studio's pages are answered for the member who opens them (studio-page.ts). */
  services?: AppServices;
  throttle?: AuthThrottle;
}

const EDIT_PAGE = /^\/app\/codes\/[^/]+\/edit\/?$/;

export async function webAppRoutes(app: FastifyInstance, opts: WebAppOptions = {}): Promise<void> {
  const dir = opts.dir ?? DEFAULT_WEB_DIR;
  app.get('/', { schema: { hide: true } }, (_req, reply) => reply.redirect('/app/', 302));

  const readIndex = watchedFile(path.join(dir, 'index.html'), (body) => body);
  const readStudio = watchedFile(path.join(dir, '.vite', 'manifest.json'), (body) =>
    studioAssets(JSON.parse(body.toString('utf8')) as Manifest),
  );
  const { services, throttle } = opts;
  if (services !== undefined) await app.register(cookie);

  /** The page for a studio address (and its inline stylesheet's CSP source), or null for the plain one. */
  const studioPage = async (req: FastifyRequest, index: Buffer): Promise<{ html: string; styleSource?: string } | null> => {
    if (services === undefined || throttle === undefined) return null;
    const [pathname, query] = req.url.split('?', 2) as [string, string | undefined];
    const newCode = /^\/app\/codes\/new\/?$/.test(pathname);
    if (!newCode && !EDIT_PAGE.test(pathname)) return null;
    const assets = readStudio();
    if (assets === null) return null;
    const session = await pageSession(req, services, throttle);
    if (session === null || session.role === 'viewer') return null;
    const html = index.toString('utf8');
    // Drawn here: "New code" in the default design (no ?design=), for a member of one account.
    const drawn = newCode && query === undefined && session.accounts === 1 ? firstPreview(`${req.protocol}://${req.host}`) : null;
    const styles = drawn === null ? null : inlineStyles(dir, html, assets);
    if (drawn === null || styles === null) return { html: html.replace('</head>', `${studioLinks(assets, false)}</head>`) };
    let page = html;
    for (const link of styles.replaces) page = page.replace(link, '');
    // The files first: the browser asks for them as soon as it reads them, before the stylesheet has arrived.
    page = page
      .replace('<title>', `${studioLinks(assets, true)}<title>`)
      .replace('</head>', `${styles.element}</head>`)
      .replace('<title>qrtrack</title>', '<title>New code · qrtrack</title>')
      .replace(
        '<div id="app"></div>',
        `<div id="app" data-first-paint="studio">${newCodeFirstPaint(session, services.addresses.publicAddress(), drawn)}</div>`,
      );
    return { html: page, styleSource: styles.source };
  };

  const page = async (req: FastifyRequest, reply: FastifyReply) => {
    const index = readIndex();
    if (index === null) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built yet: run `npm run build` (`npm start` builds it when needed).\n');
    }
    const studio = await studioPage(req, index);
    const encoded = studio === null ? null : encode(studio.html, req.headers['accept-encoding']);
    if (encoded !== null) void reply.header('Content-Encoding', encoded.encoding);
    return (
      reply
        .header('Content-Security-Policy', studio?.styleSource === undefined ? APP_CSP : appCsp(studio.styleSource))
        // A page made for the member who asked (their account's name in it) is kept by no cache.
        .header('Cache-Control', studio === null ? 'no-cache' : 'private, no-store')
        .header('Vary', 'Cookie, Accept-Encoding')
        .header('X-Content-Type-Options', 'nosniff')
        .header('X-Frame-Options', 'DENY')
        // One-time links carry their token in the path: it must never leave in a Referer.
        .header('Referrer-Policy', 'no-referrer')
        .type('text/html; charset=utf-8')
        .send(encoded?.body ?? studio?.html ?? index)
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
 * The studio's page compressed for a browser that accepts it (it holds its stylesheets: 40 KB
 * and more, a quarter of that compressed, and it is made per request, so it cannot be
 * compressed at build time like the assets). A fast level: well under a millisecond.
 */
function encode(html: string, accepted: string | undefined): { encoding: 'br' | 'gzip'; body: Buffer } | null {
  // Split, not a regular expression: the header is the client's (no backtracking on it).
  const offered = new Set(
    (accepted ?? '')
      .split(',')
      .map((part) => part.split(';').map((p) => p.trim().toLowerCase()))
      .filter(([, q]) => q === undefined || !/^q=0(\.0*)?$/.test(q))
      .map(([name]) => name),
  );
  const accepts = (name: string) => offered.has(name);
  if (accepts('br')) return { encoding: 'br', body: brotliCompressSync(html, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } }) };
  if (accepts('gzip')) return { encoding: 'gzip', body: gzipSync(html, { level: 6 }) };
  return null;
}

/**
 * A built file as last read (and what `parse` made of it), read again when the file changed: a
 * rebuild of dist/web under a running server (a deploy into the same folder) replaces the hashed
 * scripts index.html and the manifest name, and the old page would load none of them. A stat at
 * most once per `checkEveryMs` keeps this off the cost of each page load. While a rebuild has
 * removed the file (or left it half written), the last copy stays.
 */
function watchedFile<T>(file: string, parse: (body: Buffer) => T, checkEveryMs = 1000): () => T | null {
  let value: T | null = null;
  let version = '';
  let checkedAt = Number.NEGATIVE_INFINITY;
  return () => {
    const now = Date.now();
    if (now - checkedAt < checkEveryMs) return value;
    checkedAt = now;
    try {
      const stat = fs.statSync(file);
      const seen = `${stat.mtimeMs}:${stat.size}`;
      if (seen !== version) {
        value = parse(fs.readFileSync(file));
        version = seen;
      }
    } catch {
      // not built yet, or being rebuilt
    }
    return value;
  };
}
