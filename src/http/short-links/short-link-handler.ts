// The short link /r/{code}: resolve (from memory where possible) → record the scan →
// answer. Written against plain request/response values so that two thin adapters
// share it: the Fastify route (used by app.inject and any server built by buildApp)
// and the listening server's fast path, which answers /r/* before Fastify's routing
// and reply machinery, because this is the one request that must be as cheap as a
// bare redirect. Never rate limited, never cached by browsers or proxies, never indexed.
import { type TrustFunction, clientAddress } from '../request/client-address.ts';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { ShortLinkHealth } from './failure-watch.ts';
import type { ShortLinkTarget } from '../../db/qr-items/qr-items-repository.ts';
import { isShortCode } from '../../domain/qr-items/short-code.ts';
import type { AppServices } from '../../services.ts';
import {
  type RenderedPage,
  renderCappedPage,
  renderExpiredPage,
  renderGonePage,
  renderLandingPage,
  renderNotFoundPage,
  renderPausedPage,
  renderPasswordPage,
  renderScheduledPage,
  renderVcf,
  vcfContentDisposition,
} from '../pages/index.ts';
import type { AttemptCounter } from '../../domain/accounts/attempt-limiter.ts';
import { publicHeadingOf } from '../../domain/qr-items/public-heading.ts';
import type { ScanCap } from '../../db/short-links/scan-cap.ts';
import {
  PASSWORD_COOKIE_MS,
  checkCodePassword,
  cookieValue,
  passwordCookieName,
  passwordCookieValid,
  passwordCookieValue,
} from '../../domain/dynamic/code-password.ts';
import { NO_MATCH, type RuleMatch } from '../../domain/dynamic/compile-rules.ts';
import { ROUTED_KINDS } from '../../domain/dynamic/dynamic-settings.ts';
import { DEFAULT_COMPILED_ROUTING } from '../../domain/dynamic/routing.ts';
import { visitorContext } from '../../domain/dynamic/visitor-context.ts';
import type { Scan } from '../../domain/scans/scan.ts';
import type { ScanAttribution, ScanOutcome } from '../../domain/scans/scan-tracker.ts';
import type { ShortLinkOutcome, ShortLinkTally } from '../../metrics/short-link-tally.ts';
import type { AccessLog } from '../logging/access-log.ts';

export interface ShortLinkRequest {
  method: string;
  /** What follows /r/: a code, or a code plus ".vcf". */
  code: string;
  /** The raw query string after '?' ('' when none): only ever merged into a destination's query. */
  query: string;
  headers: IncomingHttpHeaders;
  /** The Host header: the instance's own hosts answer its codes, an account's domain only that domain's codes, any other 404. */
  host: string | undefined;
  ip: string;
  /** The password a visitor posted with the form (POST /r/{code}). */
  password?: string;
}

export interface ShortLinkResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** What the answer was, for the metrics (a closed list: no label per code). */
  outcome: ShortLinkOutcome;
}

export type ShortLinkHandler = (req: ShortLinkRequest) => Promise<ShortLinkResponse>;

/** On every answer under /r/: each scan reaches the server, and no search engine lists a short link. */
export const SHORT_LINK_HEADERS = { 'cache-control': 'no-store', 'x-robots-tag': 'noindex' } as const;

/** The answer while the database cannot be read: a scanner may try again in a moment. */
const UNAVAILABLE: ShortLinkResponse = {
  status: 503,
  headers: { ...SHORT_LINK_HEADERS, 'content-type': 'text/plain; charset=utf-8', 'retry-after': '5' },
  body: 'This link cannot be opened right now; please try again in a moment.',
  outcome: 'unavailable',
};

/** POST is a protected code's form; anywhere else it is the 405 of every other method (error-handlers.ts). */
const NOT_ALLOWED: ShortLinkResponse = {
  status: 405,
  headers: { ...SHORT_LINK_HEADERS, allow: 'GET, HEAD', 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify({ error: 'method: a short link answers GET and HEAD, not POST' }),
  outcome: 'not_allowed',
};

/** Whether the code can refuse or route a scan: only these take the long way (most codes do not). */
function isDynamic(t: ShortLinkTarget): boolean {
  return (
    t.opensMs !== null || t.endsMs !== null || t.maxScans !== null || t.passwordHash !== null || t.routing !== DEFAULT_COMPILED_ROUTING
  );
}

export function createShortLinkHandler(services: AppServices, health: ShortLinkHealth): ShortLinkHandler {
  const handle = answerShortLink(services, health);
  const tally: ShortLinkTally = services.shortLinkTally;
  // The metrics' only cost on the redirect: one increment of a plain number (read when scraped).
  return async (req) => {
    try {
      const res = await handle(req);
      tally[res.outcome]++;
      return res;
    } catch (err) {
      tally.error++;
      throw err;
    }
  };
}

function answerShortLink(services: AppServices, health: ShortLinkHealth): ShortLinkHandler {
  const { tracker, scanCap, codePasswordLimiter } = services;
  /** A scan's record; a failure is logged (a line every 10 s while it lasts) and GET /readyz answers 503, the visitor still gets the answer. */
  const record = async (target: ShortLinkTarget, scan: Scan | null, attribution: ScanAttribution) => {
    if (scan === null) return;
    try {
      await tracker.record(target, scan, attribution);
    } catch (err) {
      health.scans.failed(err, { code: target.code });
    }
  };

  return async (req) => {
    // A Map lookup (memoised per Host header): no query per scan.
    const route = services.addresses.route(req.host);
    if (route === null) return page(renderNotFoundPage(), 'not_found');
    const domain = route.kind === 'domain' ? route.domain : null;
    const vcf = req.code.endsWith('.vcf');
    const code = vcf ? req.code.slice(0, -4) : req.code;
    let target: ShortLinkTarget | null;
    try {
      target = isShortCode(code) ? await services.links.resolve(code) : null;
    } catch (err) {
      health.lookups.failed(err);
      return UNAVAILABLE;
    }
    // A code answers only on its own domain (or, without one, on the instance's hosts): another
    // account's domain must not open it.
    if (target !== null && target.domainId !== (domain?.id ?? null)) target = null;
    // Only a live protected code takes a form; its right password is the scan.
    if (req.method === 'POST' && (vcf || !target?.active || target.deleted || target.passwordHash === null)) return NOT_ALLOWED;
    // A domain's fallback takes unknown and deleted codes (a paused one is still its owner's).
    if (!target || target.deleted) {
      const outcome = target?.deleted ? 'gone' : 'not_found';
      if (domain?.fallbackUrl) return redirect(302, domain.fallbackUrl, outcome);
      return page(target?.deleted ? renderGonePage() : renderNotFoundPage(), outcome);
    }
    if (!target.active) return page(renderPausedPage(), 'not_found');
    if (vcf && target.contentType !== 'vcard') return page(renderNotFoundPage(), 'not_found');
    const now = Date.now();
    let scan: Scan | null = null;
    try {
      scan = await tracker.classify(req.method === 'POST' ? { ...req, method: 'GET' } : req, now);
    } catch (err) {
      health.scans.failed(err, { code });
    }
    if (!isDynamic(target)) {
      if (vcf) return contactCard(target);
      return answer(target, null, req, scan, record);
    }
    return dynamicAnswer(target, { req, vcf, now, scan, record, scanCap, codePasswordLimiter });
  };
}

type Recorder = (target: ShortLinkTarget, scan: Scan | null, attribution: ScanAttribution) => Promise<void>;

interface Visit {
  req: ShortLinkRequest;
  vcf: boolean;
  now: number;
  /** null: it could not be classified (the salt could not be read); answered, not recorded. */
  scan: Scan | null;
  record: Recorder;
  scanCap: ScanCap;
  codePasswordLimiter: AttemptCounter;
}

/**
 * The long way, in the order of product-decisions §11: expired → capped → scheduled →
 * password → rules → query → record → answer. A refused scan is recorded with its outcome
 * (counted apart, never in scanCount); the contact card download is no scan at all.
 */
async function dynamicAnswer(target: ShortLinkTarget, v: Visit): Promise<ShortLinkResponse> {
  const { req, now, scan, record } = v;
  const counted = scan?.record === true && !scan.isBot;
  const { fallbackUrls } = target.routing;
  if (target.endsMs !== null && now >= target.endsMs) {
    return refused(target, v, 'expired', fallbackUrls.expired, () => renderExpiredPage(target.expiresAt as string));
  }
  const scheduled = target.opensMs !== null && now < target.opensMs;
  const password = target.passwordHash;
  const cookieOk =
    password !== null &&
    passwordCookieValid(password, target.code, cookieValue(header(req, 'cookie'), passwordCookieName(target.code)), now);
  const given = req.password ?? header(req, 'x-qr-password');
  // A place under the cap is taken only by a scan that is let through; anything else only looks.
  if (target.maxScans !== null && (!counted || scheduled || v.vcf || (password !== null && !cookieOk && given === undefined))) {
    if (await v.scanCap.reached(target.id)) return refused(target, v, 'capped', fallbackUrls.capped, renderCappedPage);
  }
  if (scheduled) return refused(target, v, 'scheduled', fallbackUrls.scheduled, () => renderScheduledPage(target.activatesAt as string));

  let setCookie: string | null = null;
  if (password !== null && !cookieOk) {
    if (given === undefined) {
      if (!v.vcf && req.method === 'GET') await record(target, scan, { outcome: 'password_required' });
      return page(renderPasswordPage({ code: target.code, query: req.query, status: 200 }), 'password_required');
    }
    // Counted per code and address (the limiter's "email" key), and per address over all codes.
    const attempt = await v.codePasswordLimiter.admit(req.ip, `${target.code} ${req.ip}`);
    if (attempt.wait > 0) {
      const tooMany = page(
        renderPasswordPage({ code: target.code, query: req.query, status: 429, problem: 'Too many wrong passwords. Try again later.' }),
        'password_throttled',
      );
      tooMany.headers['retry-after'] = String(attempt.wait);
      return tooMany;
    }
    const right = await checkCodePassword(password, given);
    await attempt.done(!right);
    if (!right) {
      await record(target, scan, { outcome: 'password_failed' });
      return page(
        renderPasswordPage({ code: target.code, query: req.query, status: 403, problem: 'That password is not right.' }),
        'password_failed',
      );
    }
    setCookie = passwordCookie(target.code, passwordCookieValue(password, target.code, now));
  }
  if (v.vcf) return contactCard(target);
  // A landing page's form is answered with a GET of the page (no resubmit on reload): that GET,
  // carrying the cookie, is the scan.
  if (setCookie !== null && req.method === 'POST' && !ROUTED_KINDS.has(target.contentType)) {
    const self = `/r/${encodeURIComponent(target.code)}${req.query ? `?${req.query}` : ''}`;
    return withCookie(redirect(303, self, 'password_accepted'), setCookie);
  }

  let match: RuleMatch = NO_MATCH;
  const rules = target.routing.rules;
  if (rules !== null && ROUTED_KINDS.has(target.contentType) && scan !== null) {
    match = rules.match(
      visitorContext({
        agent: scan,
        country: scan.country,
        acceptLanguage: header(req, 'accept-language'),
        rawQuery: req.query,
        nowMs: now,
        stickyKey: scan.visitorHash,
      }),
    );
  }
  if (target.maxScans !== null && counted && scan !== null) {
    const admitted = await v.scanCap.admit({ itemId: target.id, basis: target.scanCapBasis, day: scan.day, visitorHash: scan.visitorHash });
    if (!admitted) return refused(target, v, 'capped', fallbackUrls.capped, renderCappedPage);
  }
  const res = await answer(target, match, req, scan, record);
  if (setCookie === null) return res;
  // The right password posted: 303 to the destination, so a reload does not post it again.
  if (req.method === 'POST' && res.status === 302) res.status = 303;
  return withCookie(res, setCookie);
}

/** A scan the code's lifecycle refused: recorded with its outcome, answered by the fallback or the page. */
async function refused(
  target: ShortLinkTarget,
  v: Visit,
  outcome: ScanOutcome & ShortLinkOutcome,
  fallback: string | undefined,
  shown: () => RenderedPage,
): Promise<ShortLinkResponse> {
  if (!v.vcf) await v.record(target, v.scan, { outcome });
  return fallback !== undefined ? redirect(302, fallback, outcome) : page(shown(), outcome);
}

function withCookie(res: ShortLinkResponse, cookie: string): ShortLinkResponse {
  return { ...res, headers: { ...res.headers, 'set-cookie': cookie } };
}

/** Records the scan as let through and answers it: the destination (rules and query applied) or the landing page. */
async function answer(
  target: ShortLinkTarget,
  match: RuleMatch | null,
  req: ShortLinkRequest,
  scan: Scan | null,
  record: Recorder,
): Promise<ShortLinkResponse> {
  if (ROUTED_KINDS.has(target.contentType)) {
    const destination = match?.destination ?? target.payload;
    const location = target.routing.location(destination, req.query);
    // A code with rules has its scans attributed: which rule, variant and destination.
    await record(
      target,
      scan,
      target.routing.rules !== null
        ? { outcome: 'redirect', ruleId: match?.rule?.id ?? null, variant: match?.variant ?? null, destination }
        : REDIRECT,
    );
    return redirect(302, location, 'redirect');
  }
  await record(target, scan, LANDING);
  // The page shows the code's public heading (or a neutral one by kind): its title is the account's own.
  const landing = renderLandingPage({
    title: publicHeadingOf(target),
    code: target.code,
    payload: target.payload,
    contentType: target.contentType,
  });
  return landing ? page(landing, 'landing') : page(renderNotFoundPage(), 'not_found');
}

const REDIRECT: ScanAttribution = Object.freeze({ outcome: 'redirect' });
const LANDING: ScanAttribution = Object.freeze({ outcome: 'landing' });

function redirect(status: 302 | 303, location: string, outcome: ShortLinkOutcome): ShortLinkResponse {
  // SHORT_LINK_HEADERS written out: a literal of fixed shape costs the hot path less than a spread.
  return {
    status,
    headers: { 'cache-control': 'no-store', 'x-robots-tag': 'noindex', location, 'content-length': '0' },
    body: '',
    outcome,
  };
}

function header(req: ShortLinkRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Path-scoped to the one code, for 12 hours; never sent to another code or the API. */
function passwordCookie(code: string, value: string): string {
  return `${passwordCookieName(code)}=${value}; Max-Age=${PASSWORD_COOKIE_MS / 1000}; Path=/r/${code}; HttpOnly; SameSite=Lax`;
}

function page(p: RenderedPage, outcome: ShortLinkOutcome): ShortLinkResponse {
  return {
    outcome,
    status: p.status,
    headers: {
      ...SHORT_LINK_HEADERS,
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': p.csp,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    },
    body: p.html,
  };
}

/** The contact card download: not a scan (the scan was the page that offered it). */
function contactCard(target: ShortLinkTarget): ShortLinkResponse {
  if (target.contentType !== 'vcard') return page(renderNotFoundPage(), 'not_found');
  return {
    outcome: 'contact_card',
    status: 200,
    headers: {
      ...SHORT_LINK_HEADERS,
      'content-type': 'text/vcard; charset=utf-8',
      'content-disposition': vcfContentDisposition(target.payload, target.title),
      'x-content-type-options': 'nosniff',
    },
    body: renderVcf(target.payload, target.title),
  };
}

/** `GET /` on a host: an account's domain answers with its root redirect (or 404); null for the instance's own hosts and unknown ones. */
export type RootAnswer = (host: string | undefined) => ShortLinkResponse | null;

export function createRootAnswer(services: AppServices): RootAnswer {
  const tally = services.shortLinkTally;
  return (host) => {
    const route = services.addresses.route(host);
    if (route?.kind !== 'domain') return null;
    const to = route.domain.rootRedirect;
    const res = to ? redirect(302, to, 'root_redirect') : page(renderNotFoundPage(), 'not_found');
    tally[res.outcome]++;
    return res;
  };
}

export function isRootPath(url: string): boolean {
  return url === '/' || url.startsWith('/?');
}

/** The listening server's adapter: answers GET/HEAD /r/* (and / on an account's domain) on the raw request, or returns false. */
export function rawShortLinkResponder(
  handle: ShortLinkHandler,
  trust: TrustFunction | false,
  log: FastifyBaseLogger,
  root: RootAnswer,
  accessLog: AccessLog | null = null,
) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = req.url ?? '';
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    if (isRootPath(url)) {
      const began = accessLog === null ? 0 : performance.now();
      const r = root(req.headers.host);
      if (r === null) return false;
      const bytes = Buffer.byteLength(r.body);
      res.writeHead(r.status, { ...r.headers, 'content-length': bytes });
      res.end(req.method === 'HEAD' ? undefined : r.body);
      const ms = performance.now() - began;
      accessLog?.({ method: req.method, url, route: undefined, status: r.status, ms, bytes, ip: clientAddress(req, trust) });
      return true;
    }
    if (!url.startsWith('/r/')) return false;
    const end = url.search(/[?#]/);
    const raw = url.slice(3, end === -1 ? undefined : end).replace(/\/$/, '');
    const query = end !== -1 && url[end] === '?' ? (url.slice(end + 1).split('#', 1)[0] ?? '') : '';
    let code: string;
    try {
      code = decodeURIComponent(raw);
    } catch {
      code = '';
    }
    const ip = clientAddress(req, trust);
    const started = accessLog === null ? 0 : performance.now();
    const method = req.method;
    // No closure made per request for the log: esbuild's keepNames would name each one
    // (Object.defineProperty), measurable on this path.
    handle({ method, code, query, headers: req.headers, host: req.headers.host, ip }).then(
      (r) => {
        // A redirect's headers come with their length (redirect()); the rest get it here.
        const sized = r.body === '' && r.headers['content-length'] === '0';
        const bytes = sized ? 0 : Buffer.byteLength(r.body);
        res.writeHead(r.status, sized ? r.headers : { ...r.headers, 'content-length': bytes });
        res.end(r.body);
        if (accessLog !== null) accessLog({ method, url, route: undefined, status: r.status, ms: performance.now() - started, bytes, ip });
      },
      (err: unknown) => {
        log.error({ err }, 'short link failed');
        res.writeHead(500, { 'content-type': 'text/plain', ...SHORT_LINK_HEADERS });
        res.end('internal error');
        if (accessLog !== null) accessLog({ method, url, route: undefined, status: 500, ms: performance.now() - started, bytes: 14, ip });
      },
    );
    return true;
  };
}
