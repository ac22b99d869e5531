// Landing pages of /r/{code} for the kinds that are shown rather than redirected to: text,
// Wi-Fi and contact cards. Pure functions of the item; every user value is escaped here.
import { type ContentType, type VcardFields, type WifiFields, parseVcardPayload, parseWifiPayload } from '../../domain/payload/index.ts';
import { escapeHtml, wellFormed } from './escape-html.ts';
import { type IconName, icon } from './icons.ts';
import { type RenderedPage, renderPage } from './page-shell.ts';

export interface LandingPageOptions {
  /** The heading visitors see: the code's public heading or a neutral one (publicHeadingOf), never its private title. */
  title: string;
  code: string;
  payload: string;
}

export function renderTextPage(opts: LandingPageOptions): RenderedPage {
  const body = `${hero('text', 'Message', opts.title)}
<div class="message" dir="auto">${linkify(opts.payload)}</div>
${copyButton(opts.payload, 'Copy text', 'wide')}`;
  return renderPage({ status: 200, title: escapeHtml(opts.title), tone: 'text', body, script: true });
}

/** `wifi` defaults to the parsed payload; a payload that does not parse is shown as text. */
export function renderWifiPage(opts: LandingPageOptions & { wifi?: WifiFields | null }): RenderedPage {
  const wifi = opts.wifi === undefined ? parseWifiPayload(opts.payload) : opts.wifi;
  const body = wifi === null ? unreadable('wifi', 'Wi-Fi', opts) : wifiBody(opts.title, wifi);
  return renderPage({ status: 200, title: escapeHtml(opts.title), tone: 'wifi', body, script: true });
}

/** `vcard` defaults to the parsed payload; "Add to contacts" downloads `/r/{code}.vcf`. */
export function renderVcardPage(opts: LandingPageOptions & { vcard?: VcardFields | null }): RenderedPage {
  const card = opts.vcard === undefined ? parseVcardPayload(opts.payload) : opts.vcard;
  const body = card === null ? unreadable('addContact', 'Contact', opts) : vcardBody(opts.title, card);
  const page = { status: 200, title: escapeHtml(opts.title), tone: 'vcard', body: body + addContactButton(opts.code) } as const;
  return renderPage({ ...page, script: card === null }); // the unreadable fallback has a copy button
}

/** The page for a kind that is shown; null for the kinds answered with a redirect. */
export function renderLandingPage(item: LandingPageOptions & { contentType: ContentType }): RenderedPage | null {
  switch (item.contentType) {
    case 'text':
      return renderTextPage(item);
    case 'wifi':
      return renderWifiPage(item);
    case 'vcard':
      return renderVcardPage(item);
    default:
      return null;
  }
}

// ---------------------------------------------------------------------------------------------

function hero(badge: IconName, eyebrow: string, title: string, lead?: string): string {
  return `<header class="hero">
<div class="badge">${icon(badge)}</div>
<p class="eyebrow">${eyebrow}</p>
<h1 dir="auto">${escapeHtml(title)}</h1>${lead === undefined ? '' : `\n<p class="lead" dir="auto">${lead}</p>`}
</header>`;
}

function wifiBody(title: string, wifi: WifiFields): string {
  const open = wifi.encryption === 'nopass';
  const rows = [
    field('wifi', 'Network name', textValue(wifi.ssid), copyButton(wifi.ssid, 'Copy network name')),
    open
      ? field('lock', 'Password', '<span class="value">None needed</span>')
      : field('lock', 'Password', textValue(wifi.password, 'mono'), copyButton(wifi.password, 'Copy password')),
    field('shield', 'Security', `<span class="value">${escapeHtml(securityLabel(wifi.encryption))}</span>`),
  ];
  const ssid = `<strong dir="auto">${escapeHtml(wifi.ssid)}</strong>`;
  const how = wifi.hidden
    ? `This network is hidden: in Wi-Fi settings choose “Other network”, enter ${ssid}${open ? '' : ' and paste the password'}.`
    : `Open Wi-Fi settings, choose ${ssid}${open ? '' : ' and paste the password'}.`;
  return `${hero('wifi', 'Wi-Fi', title, 'Join this network')}
<ul class="fields">
${rows.join('\n')}
</ul>
<p class="note">${how}</p>`;
}

function securityLabel(encryption: string): string {
  if (encryption === 'nopass') return 'Open network';
  if (encryption === 'WPA') return 'WPA / WPA2 / WPA3';
  return encryption;
}

function vcardBody(title: string, card: VcardFields): string {
  const name = card.fullName !== '' ? card.fullName : title;
  const rows = [
    card.phone === '' ? '' : field('phone', 'Phone', textValue(card.phone), '', telHref(card.phone)),
    card.email === '' ? '' : field('mail', 'Email', textValue(card.email), '', mailHref(card.email)),
    card.web === '' ? '' : field('globe', 'Website', textValue(displayUrl(card.web)), '', webHref(card.web)),
  ].filter((row) => row !== '');
  return `<header class="hero">
<div class="avatar" aria-hidden="true">${escapeHtml(initials(name))}</div>
<p class="eyebrow">Contact</p>
<h1 dir="auto">${escapeHtml(name)}</h1>${card.org === '' ? '' : `\n<p class="lead" dir="auto">${escapeHtml(card.org)}</p>`}
</header>${rows.length === 0 ? '' : `\n<ul class="fields">\n${rows.join('\n')}\n</ul>`}`;
}

function addContactButton(code: string): string {
  const href = `/r/${encodeURIComponent(wellFormed(code))}.vcf`;
  return `\n<a class="button" href="${escapeHtml(href)}">${icon('addContact')}<span>Add to contacts</span></a>`;
}

/** A payload written by hand that the parser cannot read: show it, so nothing is lost. */
function unreadable(badge: IconName, eyebrow: string, opts: LandingPageOptions): string {
  return `${hero(badge, eyebrow, opts.title)}
<div class="message" dir="auto">${linkify(opts.payload)}</div>
${copyButton(opts.payload, 'Copy text', 'wide')}`;
}

/** One row: icon, label and value; a link when `href` is given, else with an optional action. */
function field(iconName: IconName, label: string, value: string, action = '', href?: string): string {
  const inner = `<span class="field-icon">${icon(iconName)}</span>
<span class="field-body"><span class="label">${label}</span>${value}</span>`;
  if (href === undefined) return `<li class="field">${inner}${action}</li>`;
  return `<li><a class="field" href="${escapeHtml(href)}" rel="noopener noreferrer">${inner}<span class="chevron">${icon('chevron')}</span></a></li>`;
}

function textValue(value: string, extra = ''): string {
  return `<span class="value selectable${extra === '' ? '' : ` ${extra}`}" dir="auto">${escapeHtml(value)}</span>`;
}

/** `inline` sits at the end of a field row; `wide` is a full-width secondary button. */
function copyButton(value: string, label: string, variant: 'inline' | 'wide' = 'inline'): string {
  const className = variant === 'inline' ? 'copy' : 'copy button secondary';
  const text = variant === 'inline' ? 'Copy' : label;
  return `<button type="button" class="${className}" data-copy="${escapeHtml(value)}" aria-label="${label}"><span class="icon-copy">${icon('copy')}</span><span class="icon-done">${icon('check')}</span><span class="copy-label">${text}</span></button>`;
}

function initials(name: string): string {
  const words = name
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  const letters = [words[0], words.length > 1 ? words[words.length - 1] : undefined]
    .map((w) => (w === undefined ? '' : ([...w][0] ?? '')))
    .join('');
  return letters.toUpperCase() || '?';
}

// Links are built only for schemes that cannot run code; anything else stays plain text.
function telHref(phone: string): string | undefined {
  if (/[A-Za-z]/.test(phone)) return undefined; // vanity numbers: the digits alone would dial wrong
  const dial = phone.replace(/[^\d+*#]/g, '').replace(/(?!^)\+/g, '');
  return /\d{3}/.test(dial) ? `tel:${dial}` : undefined;
}

function mailHref(email: string): string | undefined {
  return /^[^\s@<>"]+@[^\s@<>"]+$/.test(email) ? `mailto:${encodeURI(wellFormed(email))}` : undefined;
}

function webHref(web: string): string | undefined {
  return safeHttpUrl(web);
}

function safeHttpUrl(candidate: string): string | undefined {
  try {
    const url = new URL(candidate);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function displayUrl(web: string): string {
  return web.replace(/^https?:\/\//i, '').replace(/\/$/, '');
}

const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"']+/gi;

const TRAILING_PUNCTUATION = new Set(['.', ',', ';', ':', '!', '?', ')', ']', '}', "'", '"']);

/**
 * `http://x.` → `http://x`. A backward scan: a regex (`/[.,;…]+$/`) tries every start in a run
 * of dots, quadratic on a crafted payload (docs/security.md).
 */
function withoutTrailingPunctuation(url: string): string {
  let end = url.length;
  while (end > 0 && TRAILING_PUNCTUATION.has(url[end - 1]!)) end--;
  return url.slice(0, end);
}

/** Escaped text with http(s) URLs turned into links; trailing punctuation stays outside. */
export function linkify(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const start = match.index ?? 0;
    const raw = withoutTrailingPunctuation(match[0]);
    const href = safeHttpUrl(raw);
    if (href === undefined) continue;
    out += escapeHtml(text.slice(last, start));
    out += `<a href="${escapeHtml(href)}" rel="noopener noreferrer nofollow ugc">${escapeHtml(raw)}</a>`;
    last = start + raw.length;
  }
  return out + escapeHtml(text.slice(last));
}
