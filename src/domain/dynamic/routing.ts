// A code's routing as the short link uses it, built once when the code is cached: rules
// compiled, nothing parsed per scan. `null` when everything is the default (most codes).
import { LruCache } from '../scans/lru-cache.ts';
import { type CompiledRules, compileRules } from './compile-rules.ts';
import { withQuery } from './passthrough.ts';
import type { Routing } from './dynamic-settings.ts';
import type { FallbackUrls, Utm } from './rules-schema.ts';

export interface CompiledRouting {
  rules: CompiledRules | null;
  fallbackUrls: FallbackUrls;
  forwardQuery: boolean;
  /** null when no utm field is set. */
  utm: Utm | null;
  /** The destination with the visitor's query and UTM applied, remembered: a printed code's query repeats. */
  location(destination: string, query: string): string;
}

/** Locations remembered per code: a few destinations times the queries its posters carry. */
const LOCATIONS_PER_CODE = 64;
/**
 * Only short queries are remembered (a poster's utm_… fits): a visitor's long ones would make
 * the cache of 50,000 codes hold gigabytes. A longer one is merged anew each time.
 */
const REMEMBERED_QUERY_MAX = 256;

/**
 * About the heap a code's compiled routing holds, from its stored JSON's length and its parts:
 * each condition compiles to a closure and a set, each value is a set entry. Calibrated on V8
 * (heap measured per cached code, 25 rules): 67 KB for 6 conditions of a few values each, 0.5 MB
 * for 10 conditions of 50 short values, 3.2 MB for 50 values of 200 characters; this estimate
 * is at or above each.
 */
export function routingBytes(r: Routing, jsonLength: number): number {
  let conditions = 0;
  let values = 0;
  for (const rule of r.rules) {
    conditions += rule.conditions.length;
    for (const c of rule.conditions) values += c.values.length;
  }
  return 2 * jsonLength + 200 * r.rules.length + 300 * conditions + 10 * values;
}

export function compileRouting(r: Routing): CompiledRouting {
  const utm = Object.keys(r.utm).length > 0 ? r.utm : null;
  return {
    rules: r.rules.length > 0 ? compileRules(r.rules) : null,
    fallbackUrls: r.fallbackUrls,
    forwardQuery: r.forwardQuery,
    utm,
    location: locator(r.forwardQuery, utm),
  };
}

function locator(forwardQuery: boolean, utm: Utm | null): CompiledRouting['location'] {
  const remembered = new LruCache<string, string>(LOCATIONS_PER_CODE);
  return (destination, query) => {
    if ((!forwardQuery || query === '') && utm === null) return destination;
    if (query.length > REMEMBERED_QUERY_MAX) return withQuery(destination, query, forwardQuery, utm);
    const key = `${query}\n${destination}`;
    let location = remembered.get(key);
    if (location === undefined) {
      location = withQuery(destination, query, forwardQuery, utm);
      remembered.set(key, location);
    }
    return location;
  };
}

export const DEFAULT_COMPILED_ROUTING: CompiledRouting = Object.freeze({
  rules: null,
  fallbackUrls: {},
  forwardQuery: true,
  utm: null,
  location: locator(true, null),
});
