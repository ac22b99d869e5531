// What /r/{code} shows when its owner set it up not to open now: before it opens, after it
// expired, at its scan limit, or behind a password. Each says that the owner chose it, so a
// visitor does not take a working poster for a broken one (Shlink answers "invalid short code").
import { escapeHtml } from './escape-html.ts';
import { errorPage } from './error-pages.ts';
import { icon } from './icons.ts';
import { type RenderedPage, renderPage } from './page-shell.ts';

/** An instant as people read it, in UTC (the visitor's zone is unknown to the server). */
function when(iso: string): string {
  const d = new Date(iso);
  const date = d.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  const time = d.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });
  return `${date}, ${time} UTC`;
}

function notice(status: 404 | 410, eyebrow: string, heading: string, text: string): RenderedPage {
  return errorPage(status, 'scan', heading, text, eyebrow);
}

export function renderScheduledPage(activatesAt: string): RenderedPage {
  return notice(
    404,
    'Not open yet',
    `This code opens on ${escapeHtml(when(activatesAt))}`,
    'Its owner set it to start working then. Scan it again after that time.',
  );
}

export function renderExpiredPage(expiresAt: string): RenderedPage {
  return notice(
    410,
    'Expired',
    `This code expired on ${escapeHtml(when(expiresAt))}`,
    'Its owner set it to stop working then, so it no longer leads anywhere.',
  );
}

export function renderCappedPage(): RenderedPage {
  return notice(
    410,
    'Scan limit reached',
    'This code has reached its scan limit',
    'Its owner set it to work for a limited number of scans, and they have all been used.',
  );
}

export interface PasswordPageOptions {
  code: string;
  /** The visitor's query string (without '?'), kept so it still reaches the destination. */
  query: string;
  status: 200 | 403 | 429;
  /** Shown under the field: the password was wrong, or too many tries. */
  problem?: string;
}

/** The form a password-protected code answers: posts to its own address, nothing else loads. */
export function renderPasswordPage(opts: PasswordPageOptions): RenderedPage {
  const problem = opts.problem ? `<p class="wrong" role="alert">${escapeHtml(opts.problem)}</p>` : '';
  const body = `<header class="hero">
<div class="badge">${icon('lock')}</div>
<p class="eyebrow">Protected</p>
<h1>This code needs a password</h1>
<p class="lead">Its owner protected it. Enter the password you were given to continue.</p>
</header>
<form class="gate" method="post" action="/r/${escapeHtml(encodeURIComponent(opts.code))}${opts.query ? `?${escapeHtml(opts.query)}` : ''}">
<label class="label" for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="512" autofocus>
${problem}<button type="submit">Continue</button>
</form>`;
  return renderPage({ status: opts.status, title: 'Password required', tone: 'error', body, form: true });
}
