// Small HTML answers of /r/{code} when there is nothing to show. A paused code answers 404 as
// an unknown one does (the spec's status), but says it is paused: "check that the whole code was
// scanned" sent people holding a good print to scan it again (issue #32).
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

/** Paused (`active: false`): 404, saying so, so nobody rescans a print that is fine. */
export function renderPausedPage(): RenderedPage {
  return errorPage(
    404,
    'scan',
    'This QR code is paused',
    'Its owner has paused it for now, so it does not lead anywhere at the moment. Try again later, or ask whoever shared it.',
    'Paused',
  );
}

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
