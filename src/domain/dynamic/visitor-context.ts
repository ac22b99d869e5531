// The visitor as rules see it, built from what the short link already knows (the classified
// user agent, the country) and two headers parsed cheaply: Accept-Language (bounded and
// memoised, since browsers send the same few) and the query string (parsed only when a query
// condition asks for it).
import { type AgentClass, classifyUserAgent } from '../scans/classify-agent.ts';
import { countryCode } from '../scans/country-codes.ts';
import { LruCache } from '../scans/lru-cache.ts';
import type { QueryLookup, VisitorContext } from './compile-rules.ts';
import { parseInstant } from './date-time.ts';
import { capQuery } from './passthrough.ts';
import type { RulesTestRequest } from './rules-schema.ts';

/** Real headers are under 100 characters with 2 to 6 entries; more is cut, not parsed. */
export const MAX_ACCEPT_LANGUAGE_LENGTH = 256;
export const MAX_ACCEPT_LANGUAGE_ENTRIES = 8;

const LANGUAGE_RANGE = /^[a-z]{1,8}(?:-[a-z0-9]{1,8})*$/;
const QUALITY = /^q=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;
const NO_LANGUAGES: readonly string[] = Object.freeze([]);
const languageCache = new LruCache<string, readonly string[]>(500);

/**
 * Accept-Language → language tags, lower-case, most preferred first (by q, then by order).
 * `*`, malformed entries and q=0 are left out; the header is cut at 256 characters (at an entry
 * boundary) and 8 entries.
 */
export function parseAcceptLanguage(header: string | null | undefined): readonly string[] {
  if (!header) return NO_LANGUAGES;
  const hit = languageCache.get(header);
  if (hit !== undefined) return hit;
  const parsed = Object.freeze(parseUncached(header));
  languageCache.set(header, parsed);
  return parsed;
}

function parseUncached(header: string): string[] {
  let h = header;
  if (h.length > MAX_ACCEPT_LANGUAGE_LENGTH) h = h.slice(0, Math.max(0, h.lastIndexOf(',', MAX_ACCEPT_LANGUAGE_LENGTH)));
  const entries: { tag: string; q: number; order: number }[] = [];
  for (const part of h.split(',', MAX_ACCEPT_LANGUAGE_ENTRIES)) {
    const [range = '', ...params] = part.split(';');
    const tag = range.trim().toLowerCase();
    if (!LANGUAGE_RANGE.test(tag)) continue;
    let q = 1;
    for (const p of params) {
      const m = QUALITY.exec(p.trim().toLowerCase());
      if (m === null) {
        if (p.trim().toLowerCase().startsWith('q=')) q = Number.NaN; // a broken weight: leave the entry out
        continue;
      }
      q = Number(m[1]);
    }
    if (!(q > 0)) continue;
    entries.push({ tag, q, order: entries.length });
  }
  entries.sort((a, b) => b.q - a.q || a.order - b.order);
  return [...new Set(entries.map((e) => e.tag))];
}

const EMPTY_QUERY: QueryLookup = Object.freeze({ get: () => null, has: () => false });

/**
 * The visitor's raw query string (`?` optional) as a lookup, parsed on first use and capped like
 * passthrough. A class, not closures: one small object a scan (closures over a lazy variable
 * measured a hundred times slower to create).
 */
class LazyQuery implements QueryLookup {
  private params: URLSearchParams | null = null;
  constructor(private readonly raw: string) {}
  get(name: string): string | null {
    this.params ??= new URLSearchParams(capQuery(this.raw));
    return this.params.get(name);
  }
  has(name: string): boolean {
    this.params ??= new URLSearchParams(capQuery(this.raw));
    return this.params.has(name);
  }
}

export function queryLookup(rawQuery: string): QueryLookup {
  return rawQuery === '' || rawQuery === '?' ? EMPTY_QUERY : new LazyQuery(rawQuery);
}

export interface VisitInput {
  /** The user agent as classifyUserAgent gave it (the short link has it already). */
  agent: Pick<AgentClass, 'os' | 'device' | 'browser'>;
  country?: string | null;
  acceptLanguage?: string | null;
  /** The raw query string after `?`, or ''. */
  rawQuery?: string;
  nowMs: number;
  stickyKey: string;
}

// OS and browser names repeat (the parser's vocabulary), so each is lower-cased once: the rules'
// set lookups then meet the same string every scan, its hash already known.
const lowerNames = new Map<string, string>();
function lowerName(name: string | null): string | null {
  if (name === null) return null;
  let lower = lowerNames.get(name);
  if (lower === undefined) {
    lower = name.toLowerCase();
    // Some names are captured from the user agent itself: the memo stays bounded.
    if (lowerNames.size < 1000) lowerNames.set(name, lower);
  }
  return lower;
}

/** A visit as rules see it: names lower-cased, the country checked, headers parsed. */
export function visitorContext(input: VisitInput): VisitorContext {
  return {
    os: lowerName(input.agent.os),
    device: input.agent.device,
    browser: lowerName(input.agent.browser),
    country: countryCode(input.country),
    languages: parseAcceptLanguage(input.acceptLanguage),
    query: input.rawQuery ? queryLookup(input.rawQuery) : EMPTY_QUERY,
    nowMs: input.nowMs,
    stickyKey: input.stickyKey,
  };
}

/**
 * The visit a `rules/test` request describes. Its split variant is the one a visitor with this
 * description gets on that day: the sticky key is made of the description, so the same request
 * answers the same variant.
 */
export function visitorFromTest(request: RulesTestRequest, nowMs: number): VisitorContext {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(request.query ?? {})) query.set(k, v);
  return {
    ...visitorContext({
      agent: classifyUserAgent(request.userAgent),
      country: request.country ?? null,
      acceptLanguage: request.language ?? null,
      nowMs: request.at === undefined ? nowMs : parseInstant(request.at, 'at'),
      stickyKey: `test\n${request.userAgent ?? ''}\n${request.country ?? ''}\n${request.language ?? ''}`,
    }),
    query,
  };
}
