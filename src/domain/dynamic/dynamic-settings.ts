// What makes a code dynamic beyond its destination (docs/dynamic-codes.md): its lifecycle
// (when it opens, when it ends, how many scans it admits) and its routing (rules, fallbacks,
// query passthrough, UTM). Plain values; the short link compiles them once per cached item.
import type { ScanCapBasis } from './lifecycle.ts';
import type { FallbackUrls, Rule, Utm } from './rules-schema.ts';

export type { ScanCapBasis } from './lifecycle.ts';

/** Where rules, passthrough and UTM apply: the kinds whose short link redirects. */
export const ROUTED_KINDS: ReadonlySet<string> = new Set(['url', 'whatsapp', 'email']);

export interface Routing {
  rules: Rule[];
  fallbackUrls: FallbackUrls;
  forwardQuery: boolean;
  utm: Utm;
}

export interface Lifecycle {
  activatesAt: string | null;
  expiresAt: string | null;
  maxScans: number | null;
  scanCapBasis: ScanCapBasis;
}

export type DynamicSettings = Lifecycle & Routing;

export const DEFAULT_ROUTING: Routing = Object.freeze({ rules: [], fallbackUrls: {}, forwardQuery: true, utm: {} });

export const NO_DYNAMIC: DynamicSettings = Object.freeze({
  ...DEFAULT_ROUTING,
  activatesAt: null,
  expiresAt: null,
  maxScans: null,
  scanCapBasis: 'human' as const,
});

/** Stored as JSON, null when everything is the default (most codes): nothing to parse on a redirect. */
export function routingToJson(r: Routing): string | null {
  const out: Partial<Routing> = {};
  if (r.rules.length > 0) out.rules = r.rules;
  if (Object.keys(r.fallbackUrls).length > 0) out.fallbackUrls = r.fallbackUrls;
  if (!r.forwardQuery) out.forwardQuery = false;
  if (Object.keys(r.utm).length > 0) out.utm = r.utm;
  return Object.keys(out).length === 0 ? null : JSON.stringify(out);
}

export function routingFromJson(json: string | null): Routing {
  if (json === null) return DEFAULT_ROUTING;
  const stored = JSON.parse(json) as Partial<Routing>;
  return {
    rules: stored.rules ?? [],
    fallbackUrls: stored.fallbackUrls ?? {},
    forwardQuery: stored.forwardQuery ?? true,
    utm: stored.utm ?? {},
  };
}

/** True when the code's cap, schedule or expiry can refuse a scan: the list's lifecycle index holds these. */
export function hasLifecycle(l: Lifecycle): boolean {
  return l.activatesAt !== null || l.expiresAt !== null || l.maxScans !== null;
}
