// A code's routing as the short link uses it, built once when the code is cached: rules
// compiled, nothing parsed per scan. `null` when everything is the default (most codes).
import { type CompiledRules, compileRules } from './compile-rules.ts';
import type { Routing } from './dynamic-settings.ts';
import type { FallbackUrls, Utm } from './rules-schema.ts';

export interface CompiledRouting {
  rules: CompiledRules | null;
  fallbackUrls: FallbackUrls;
  forwardQuery: boolean;
  /** null when no utm field is set. */
  utm: Utm | null;
}

export function compileRouting(r: Routing): CompiledRouting {
  return {
    rules: r.rules.length > 0 ? compileRules(r.rules) : null,
    fallbackUrls: r.fallbackUrls,
    forwardQuery: r.forwardQuery,
    utm: Object.keys(r.utm).length > 0 ? r.utm : null,
  };
}

export const DEFAULT_COMPILED_ROUTING: CompiledRouting = Object.freeze({ rules: null, fallbackUrls: {}, forwardQuery: true, utm: null });
