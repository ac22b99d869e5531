// The studio opened cold, as the server answers it. On mobile data each step the app takes
// before showing a byte of the studio (its script, the session, the studio's chunks, its
// renderer) is a round trip of half a second or more. So the page itself names the studio's
// files (`modulepreload`, `preload`), and for "New code" it arrives with the studio's frame and
// its first preview already drawn: the default design, drawn by the renderer the browser's studio
// uses, exactly the image the app would draw for that draft. The app then renders the same
// markup over it (web/pages/studio/first-paint.ts): nothing flashes or moves, and the scan check
// starts on the server's image as soon as its decoder arrives.
//
// Only for a signed-in member who may create codes, in one account (the header of several
// shows a switcher, and a tab may work in another account than the session's): anyone else
// gets the plain page. Every value from a user or a request is escaped.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sampleShortLink } from '../../domain/qr-items/sample-short-link.ts';
import { DEFAULT_DESIGN } from '../../domain/design/design-schema.ts';
import type { PublicAddressView } from '../../db/domains/addresses.ts';
import { designWarnings, renderSvg } from '../../render/portable.ts';
import { svgDataUrl } from '../../render/svg-data-url.ts';
import { escapeHtml } from '../pages/escape-html.ts';
import type { StudioAssets } from './app-manifest.ts';
import type { PageSession } from './page-session.ts';

/** Where the app lives (web/vite.config.ts's `base`, without its slash). */
const BASE = '/app';

/**
 * `<link>`s for the studio's files: its stylesheet and chunks, and either its scan check (the
 * first preview drawn here) or its renderer. With the first preview drawn, the page holds its
 * stylesheets inline (`inlineStyles`): the studio's is only preloaded then, for the app's own
 * `<link>` to it (the studio's chunk adds one when it loads) to find.
 */
export function studioLinks(assets: StudioAssets, firstPreviewDrawn: boolean): string {
  const scripts = [...assets.studio, ...(firstPreviewDrawn ? assets.scanCheck : assets.renderer)];
  const links = [
    ...assets.styles.map((href) =>
      firstPreviewDrawn
        ? `<link rel="preload" as="style" crossorigin href="${escapeHtml(href)}">`
        : `<link rel="stylesheet" crossorigin href="${escapeHtml(href)}">`,
    ),
    ...[...new Set(scripts)].map((href) => `<link rel="modulepreload" crossorigin href="${escapeHtml(href)}">`),
  ];
  // The scan check's decoder, fetched as its glue fetches it (CORS mode, same-origin credentials), so that fetch takes this one.
  if (firstPreviewDrawn && assets.decoder !== null)
    links.push(`<link rel="preload" as="fetch" type="application/wasm" crossorigin href="${escapeHtml(assets.decoder)}">`);
  return links.join('');
}

/** A stylesheet held in the page, and the CSP source that allows exactly it. */
export interface InlineStyles {
  /** The `<link rel="stylesheet">`s of index.html it replaces. */
  replaces: string[];
  element: string;
  /** `'sha256-…'` for the page's `style-src`. */
  source: string;
}

const inlined = new Map<string, InlineStyles | null>();

/**
 * The page's stylesheets (index.html's and the studio's) as one `<style>`: the first paint then
 * waits for no stylesheet, a round trip less (562 ms on Fast 3G). Allowed by its hash in the
 * page's CSP, never by 'unsafe-inline'. The files are named by their content: read once. Null
 * when one is missing or could close the element early.
 */
export function inlineStyles(webDir: string, index: string, assets: StudioAssets): InlineStyles | null {
  const links = [...index.matchAll(/<link rel="stylesheet"[^>]*href="(\/app\/assets\/[^"]+\.css)"[^>]*>/g)];
  const hrefs = [...links.map((m) => m[1] as string), ...assets.styles];
  const key = hrefs.join(' ');
  let found = inlined.get(key);
  if (found === undefined) {
    try {
      const css = hrefs.map((h) => fs.readFileSync(path.join(webDir, h.slice(`${BASE}/`.length)), 'utf8')).join('\n');
      found = /<\/style/i.test(css)
        ? null
        : {
            replaces: links.map((m) => m[0]),
            element: `<style>${css}</style>`,
            source: `'sha256-${createHash('sha256').update(css).digest('base64')}'`,
          };
    } catch {
      found = null;
    }
    if (inlined.size >= 8) inlined.clear();
    inlined.set(key, found);
  }
  return found;
}

const previews = new Map<string, string | null>();

/**
 * The default design drawn for the sample short link on `origin`, as a data: URL; null when it
 * would carry warnings (the page would have to show them: the app does). A handful of origins
 * at most (the instance's own, a domain or two): each is drawn once.
 */
export function firstPreview(origin: string): { url: string; data: string } | null {
  const data = sampleShortLink(origin);
  let url = previews.get(data);
  if (url === undefined) {
    url = designWarnings(DEFAULT_DESIGN, data).length === 0 ? svgDataUrl(renderSvg(data, DEFAULT_DESIGN)) : null;
    if (previews.size >= 16) previews.clear();
    previews.set(data, url);
  }
  return url === null ? null : { url, data };
}

/** The brand mark of the app's header (web/components/layout.tsx's Brand). */
const BRAND =
  '<span class="brand"><svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false"><path fill="currentColor" d="M3 3h8v8H3zm2 2v4h4V5zm8-2h8v8h-8zm2 2v4h4V5zM3 13h8v8H3zm2 2v4h4v-4zm8-2h2v2h-2zm2 2h2v2h-2zm2-2h2v2h-2zm2 2h2v2h-2zm-4 2h2v2h-2zm2 2h2v2h-2zm2-2h2v2h-2z"></path></svg>qrtrack</span>';

/**
 * "New code" as the app first renders it (web/components/layout.tsx's AppLayout, web/pages/studio's
 * StudioPage and PreviewPanel), in the same elements and order, with no white space between
 * tags: the app renders over these nodes and keeps them. The form is the app's to add.
 */
export function newCodeFirstPaint(session: PageSession, address: PublicAddressView, preview: { url: string; data: string }): string {
  const nav = [
    ['/codes', 'Codes'],
    ['/overview', 'Overview'],
    ['/account', 'Account'],
  ]
    .map(([href, label]) => `<a class="nav__link"${href === '/codes' ? ' aria-current="page"' : ''} href="${BASE}${href}">${label}</a>`)
    .join('');
  const header =
    `<a class="skip" href="#main">Skip to content</a><header class="topbar"><div class="topbar__inner">` +
    `<a class="topbar__brand" aria-label="qrtrack, your codes" href="${BASE}/codes">${BRAND}</a>` +
    `<nav aria-label="Main" class="nav">${nav}</nav>` +
    `<div class="topbar__me"><span class="topbar__account">${escapeHtml(session.accountName)}</span>` +
    `<button type="button" class="btn btn--link">Sign out</button></div></div></header>`;
  const side =
    `<div class="studio__side"><section class="preview card" aria-labelledby="preview-h"><h2 id="preview-h">Preview</h2>` +
    `<figure class="preview__figure"><img class="preview__img" src="${escapeHtml(preview.url)}" elementtiming="preview" ` +
    `alt="QR code for this code, as it will print" data-drawn-for="${escapeHtml(preview.data)}"></figure>` +
    `<p class="scan" id="scan-check" role="status" data-state="checking">Scan check: reading the code at phone size…</p>` +
    `<p class="muted small preview__note">Drawn by the server with the renderer your browser uses for every change.</p></section>` +
    `<p class="muted small card">Downloads and the short link appear once the code is created.</p></div>`;
  const main =
    `<main id="main" class="main"><div class="page-head"><h1 tabindex="-1">New code</h1>` +
    `<div class="button-row"><button type="button" class="btn btn--primary">Create code</button></div></div>` +
    `<div class="studio"><div class="studio__edit"></div>${side}</div></main>`;
  const footer = `<footer class="app-footer small muted"><a href="/docs">API reference</a> · <a href="/v1/openapi.json">OpenAPI document</a></footer>`;
  return `<div class="shell">${header}${addressBanner(session, address)}${main}${footer}</div>`;
}

/** The banner of an address phones cannot reach (AppLayout's), or nothing. */
function addressBanner(session: PageSession, address: PublicAddressView): string {
  if (address.warning === null) return '';
  const reach = /only this machine/.test(address.warning) ? 'only this machine' : 'only this network';
  const next =
    session.role !== 'owner'
      ? 'Ask an owner to set the public address.'
      : address.source === 'env'
        ? 'Set <code>PUBLIC_BASE_URL</code> to the public address and restart.'
        : `<a href="${BASE}/account/domains">Set the public address</a>`;
  return (
    `<div class="address-banner" id="address-banner"><p><strong>Phones cannot open these codes yet.</strong> ` +
    `They point to ${escapeHtml(address.url)}, an address ${reach} can reach. ${next}</p></div>`
  );
}
