// The frame every /r/{code} page shares: document head, stylesheet, copy script and the
// Content-Security-Policy that allows exactly them. The stylesheet and script are constants, so
// the policy names them by hash: deterministic pages, no per-request nonce to thread through.
import { createHash } from 'node:crypto';

export interface RenderedPage {
  status: 200 | 403 | 404 | 410 | 429;
  /** Complete HTML document; serve as `text/html; charset=utf-8`. */
  html: string;
  /** Value for the `Content-Security-Policy` header; the page works only under it or a looser one. */
  csp: string;
}

/** The colour scheme of a page: one accent per content kind. */
export type PageTone = 'text' | 'wifi' | 'vcard' | 'error';

export interface PageParts {
  status: RenderedPage['status'];
  /** Already escaped. */
  title: string;
  tone: PageTone;
  /** Already escaped markup of the card. */
  body: string;
  /** Include the copy-button script. */
  script?: boolean;
  /** The page posts a form to itself (the password page). */
  form?: boolean;
}

const CSS = `
:root{color-scheme:light dark;--bg:#f2f4f8;--card:#fff;--text:#0f172a;--muted:#64748b;--line:#e2e8f0;--field:#f8fafc;--accent:#4f46e5;--accent-soft:#eef2ff;--on-accent:#fff;--ok:#059669;
font-family:ui-sans-serif,system-ui,-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
.tone-wifi{--accent:#0369a1;--accent-soft:#e0f2fe}
.tone-vcard{--accent:#6d28d9;--accent-soft:#ede9fe}
.tone-error{--accent:#475569;--accent-soft:#f1f5f9}
.gate{display:grid;gap:10px;margin:24px 0 4px}
.gate input{font:inherit;width:100%;min-height:52px;padding:12px 14px;border-radius:14px;border:1px solid var(--line);background:var(--field);color:inherit}
.gate button{font:inherit;font-weight:650;min-height:52px;border:0;border-radius:14px;background:var(--accent);color:var(--on-accent);cursor:pointer}
.gate .wrong{margin:0;color:#b91c1c;font-weight:600}
@media (prefers-color-scheme:dark){
:root{--bg:#0b1020;--card:#131a2b;--text:#e2e8f0;--muted:#94a3b8;--line:#243049;--field:#0f1626;--accent:#a5b4fc;--accent-soft:#1e2547;--on-accent:#0b1020;--ok:#34d399}
.tone-wifi{--accent:#7dd3fc;--accent-soft:#0c2a3f}
.tone-vcard{--accent:#c4b5fd;--accent-soft:#261b47}
.tone-error{--accent:#cbd5e1;--accent-soft:#1e293b}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;min-height:100vh;min-height:100dvh;display:flex;flex-direction:column;align-items:center;
padding:max(28px,env(safe-area-inset-top)) 16px max(20px,env(safe-area-inset-bottom));
background:radial-gradient(120% 60% at 50% 0%,var(--accent-soft),var(--bg) 70%) fixed,var(--bg);color:var(--text);font-size:16px;line-height:1.5}
main{width:100%;max-width:440px}
.card{background:var(--card);border:1px solid var(--line);border-radius:28px;padding:32px 20px 20px;
box-shadow:0 1px 2px rgb(15 23 42/.05),0 24px 48px -24px rgb(15 23 42/.25)}
.hero{text-align:center;padding:0 8px}
.badge{width:68px;height:68px;margin:0 auto 18px;border-radius:22px;display:grid;place-items:center;background:var(--accent-soft);color:var(--accent)}
.badge svg{width:34px;height:34px}
.avatar{width:84px;height:84px;margin:0 auto 16px;border-radius:50%;display:grid;place-items:center;font-size:1.9rem;font-weight:700;letter-spacing:.02em;
color:#fff;background:linear-gradient(135deg,#8b5cf6,#4f46e5);box-shadow:0 10px 24px -10px #6d28d9}
.eyebrow{margin:0 0 6px;font-size:.75rem;font-weight:700;letter-spacing:.08em;text-transform:uppercase;color:var(--accent)}
h1{margin:0;font-size:1.625rem;line-height:1.2;font-weight:750;letter-spacing:-.015em;overflow-wrap:anywhere;text-wrap:balance}
.lead{margin:8px 0 0;color:var(--muted);overflow-wrap:anywhere;text-wrap:pretty}
.fields{list-style:none;margin:26px 0 0;padding:0;display:grid;gap:10px}
.field{display:flex;align-items:center;gap:12px;min-height:64px;padding:10px 10px 10px 14px;border-radius:18px;background:var(--field);border:1px solid var(--line);color:inherit;text-decoration:none}
.field-icon{flex:none;width:38px;height:38px;border-radius:12px;display:grid;place-items:center;background:var(--accent-soft);color:var(--accent)}
.field-icon svg{width:20px;height:20px}
.field-body{flex:1;min-width:0}
.label{display:block;font-size:.75rem;font-weight:600;letter-spacing:.04em;text-transform:uppercase;color:var(--muted)}
.value{display:block;font-size:1.0625rem;font-weight:600;line-height:1.35;overflow-wrap:anywhere;white-space:pre-wrap}
a.field .value{font-size:1rem}
.selectable{-webkit-user-select:all;user-select:all}
.mono{font-family:ui-monospace,SFMono-Regular,"SF Mono",Menlo,Consolas,"Liberation Mono",monospace;font-weight:600;letter-spacing:.01em}
.chevron{flex:none;width:18px;height:18px;color:var(--muted)}
a.field:active,.copy:active,.button:active{transform:scale(.98)}
.copy{flex:none;display:inline-flex;align-items:center;justify-content:center;gap:8px;width:44px;height:44px;padding:0;border-radius:14px;border:1px solid var(--line);
background:var(--card);color:var(--accent);font:inherit;font-size:.875rem;font-weight:650;cursor:pointer;transition:color .15s,border-color .15s,background .15s}
.copy svg{width:20px;height:20px}
.copy:not(.button) .copy-label{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.icon-copy,.icon-done{display:flex}
.copy .icon-done,.copy.copied .icon-copy{display:none}
.copy.copied .icon-done{display:flex}
.copy.copied{color:var(--ok);border-color:var(--ok)}
.copy:hover{border-color:var(--accent)}
.copy:focus-visible,.button:focus-visible,a.field:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.button{display:flex;align-items:center;justify-content:center;gap:10px;width:100%;min-height:54px;margin-top:22px;border:0;border-radius:18px;
background:var(--accent);color:var(--on-accent);font:inherit;font-size:1.0625rem;font-weight:700;text-decoration:none;box-shadow:0 10px 20px -12px var(--accent)}
.button svg{width:22px;height:22px}
.button.secondary{width:100%;height:auto;background:var(--card);color:var(--text);border:1px solid var(--line);box-shadow:none;margin-top:12px}
.button.secondary svg{width:20px;height:20px;color:var(--accent)}
.message{margin:24px 0 0;padding:18px;border-radius:18px;background:var(--field);border:1px solid var(--line);font-size:1.0625rem;line-height:1.6;white-space:pre-wrap;overflow-wrap:anywhere}
.message a,.value a{color:var(--accent);text-underline-offset:2px}
.note{margin:18px 6px 0;font-size:.875rem;color:var(--muted);text-align:center;text-wrap:pretty}
.note strong{color:var(--text);font-weight:600;overflow-wrap:anywhere}
footer{margin-top:auto;padding-top:28px;font-size:.8125rem;color:var(--muted);display:flex;align-items:center;gap:6px}
footer svg{width:14px;height:14px}
.sr-only{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
.offscreen{position:fixed;top:0;left:-9999px;opacity:0}
@media (min-width:600px){body{padding-top:64px}.card{padding:40px 32px 28px}}
`.trim();

// Copies a button's data-copy value. The Clipboard API needs a secure context; plain http
// (a local install) falls back to a selected textarea and execCommand.
const SCRIPT = `
(function(){
var status=document.getElementById('status');
function fallback(text){var t=document.createElement('textarea');t.value=text;t.setAttribute('readonly','');t.className='offscreen';document.body.appendChild(t);t.select();var ok=false;try{ok=document.execCommand('copy');}catch(e){}t.remove();return ok;}
function copy(text){if(navigator.clipboard&&window.isSecureContext){return navigator.clipboard.writeText(text).catch(function(){if(!fallback(text))throw new Error('copy failed');});}return fallback(text)?Promise.resolve():Promise.reject(new Error('copy failed'));}
function show(button,done){var label=button.querySelector('.copy-label');var old=label.textContent;button.classList.toggle('copied',done);label.textContent=done?'Copied':'Select it';status.textContent=done?'Copied':'Copying is not available here';setTimeout(function(){button.classList.remove('copied');label.textContent=old;},1800);}
document.addEventListener('click',function(event){var target=event.target;var button=target instanceof Element?target.closest('button[data-copy]'):null;if(!button)return;copy(button.getAttribute('data-copy')||'').then(function(){show(button,true);},function(){show(button,false);});});
})();
`.trim();

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const STYLE_SOURCE = sha256(CSS);
const SCRIPT_SOURCE = sha256(SCRIPT);

/** The policy of a page with (`withScript`) or without the copy script. */
export function pageCsp(withScript: boolean, withForm = false): string {
  return [
    "default-src 'none'",
    `style-src ${STYLE_SOURCE}`,
    withScript ? `script-src ${SCRIPT_SOURCE}` : "script-src 'none'",
    'img-src data:',
    "base-uri 'none'",
    withForm ? "form-action 'self'" : "form-action 'none'",
    "frame-ancestors 'none'",
    ...(withScript ? ["require-trusted-types-for 'script'", "trusted-types 'none'"] : []),
  ].join('; ');
}

/** Landing pages with copy buttons carry this policy. */
export const LANDING_PAGE_CSP = pageCsp(true);

const FAVICON =
  'data:image/svg+xml,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#4f46e5"/>' +
      '<path fill="#fff" d="M7 7h7v7H7zm11 0h7v7h-7zM7 18h7v7H7zm11 0h3v3h-3zm4 4h3v3h-3zm-4 0h3v3h-3zm4-4h3v3h-3z"/></svg>',
  );

export function renderPage(parts: PageParts): RenderedPage {
  const withScript = parts.script === true;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light dark">
<title>${parts.title}</title>
<link rel="icon" href="${FAVICON}">
<style>${CSS}</style>
</head>
<body class="tone-${parts.tone}">
<main>
<article class="card">
${parts.body}
</article>
</main>
<footer>${footerMark()}<span>Shared with qrtrack</span></footer>
${withScript ? `<p id="status" class="sr-only" role="status" aria-live="polite"></p>\n<script>${SCRIPT}</script>\n` : ''}</body>
</html>
`;
  return { status: parts.status, html, csp: pageCsp(withScript, parts.form === true) };
}

function footerMark(): string {
  return '<svg viewBox="0 0 16 16" aria-hidden="true" focusable="false"><path fill="currentColor" d="M1 1h6v6H1zm2 2v2h2V3zm6-2h6v6H9zm2 2v2h2V3zM1 9h6v6H1zm2 2v2h2v-2zm6-2h2v2H9zm4 0h2v2h-2zm-2 2h2v2h-2zm-2 2h2v2H9zm4 0h2v2h-2z"/></svg>';
}
