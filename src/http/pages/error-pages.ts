// Small HTML answers of /r/{code} when there is nothing to show. A paused code gets exactly
// the not-found page, so a scanner cannot tell a paused code from one that never existed.
import { icon } from './icons.ts';
import { type RenderedPage, renderPage } from './page-shell.ts';

export function renderNotFoundPage(): RenderedPage {
  return errorPage(
    404,
    'scan',
    'QR code not found',
    'This code does not lead anywhere right now. Check that the whole code was scanned, or ask whoever shared it.',
  );
}

/** Paused (`active: false`): indistinguishable from an unknown code, by design. */
export const renderPausedPage: () => RenderedPage = renderNotFoundPage;

export function renderGonePage(): RenderedPage {
  return errorPage(410, 'trash', 'This QR code was removed', 'Its owner deleted it, so it no longer leads anywhere.');
}

/** A card that says why the short link leads nowhere now; `heading` and `text` already escaped. */
export function errorPage(
  status: 404 | 410,
  badge: 'scan' | 'trash',
  heading: string,
  text: string,
  eyebrow = `Error ${status}`,
): RenderedPage {
  const body = `<header class="hero">
<div class="badge">${icon(badge)}</div>
<p class="eyebrow">${eyebrow}</p>
<h1>${heading}</h1>
<p class="lead">${text}</p>
</header>`;
  return renderPage({ status, title: heading, tone: 'error', body });
}
