// What a create or PATCH body means for a code's lifecycle and routing: fields given replace
// the stored ones (`null` clears), the rest stay. Rules are checked and compiled-ready here,
// so a stored code never holds a rule the short link cannot evaluate.
import { ValidationError } from '../errors.ts';
import { checkFallbackUrls, checkRules, checkUtm } from './check-rules.ts';
import { type DynamicSettings, ROUTED_KINDS, type ScanCapBasis } from './dynamic-settings.ts';
import { checkLifecycle } from './lifecycle.ts';
import type { FallbackUrls, RuleInput, Utm } from './rules-schema.ts';

/** The body's dynamic fields, as the schema lets them through. */
export interface DynamicRequest {
  activatesAt?: string | null;
  expiresAt?: string | null;
  maxScans?: number | null;
  scanCapBasis?: ScanCapBasis;
  fallbackUrls?: FallbackUrls | null;
  rules?: RuleInput[] | null;
  forwardQuery?: boolean;
  utm?: Utm | null;
  password?: string | null;
}

export interface DynamicContext {
  publicBaseUrl: string;
}

/**
 * The settings after the request, or undefined when it changes none of them. Throws a
 * ValidationError naming the field (`rules[2].split: …`, `expiresAt: …`).
 */
export function planDynamic(
  req: DynamicRequest,
  current: DynamicSettings,
  contentType: string,
  ctx: DynamicContext,
): DynamicSettings | undefined {
  const given =
    req.activatesAt !== undefined ||
    req.expiresAt !== undefined ||
    req.maxScans !== undefined ||
    req.scanCapBasis !== undefined ||
    req.fallbackUrls !== undefined ||
    req.rules !== undefined ||
    req.forwardQuery !== undefined ||
    req.utm !== undefined;
  const routed = ROUTED_KINDS.has(contentType);
  if (!given) {
    // A kind change to a landing page would leave rules nothing to route.
    if (!routed && current.rules.length > 0)
      throw new ValidationError(`rules: apply only to url, whatsapp and email codes; remove them first`);
    return undefined;
  }
  const life = checkLifecycle(req, current);
  const next: DynamicSettings = {
    activatesAt: life.activatesAt === undefined ? current.activatesAt : life.activatesAt,
    expiresAt: life.expiresAt === undefined ? current.expiresAt : life.expiresAt,
    maxScans: life.maxScans === undefined ? current.maxScans : life.maxScans,
    scanCapBasis: life.scanCapBasis ?? current.scanCapBasis,
    fallbackUrls:
      req.fallbackUrls === undefined
        ? current.fallbackUrls
        : req.fallbackUrls === null
          ? {}
          : (checkFallbackUrls(req.fallbackUrls, 'fallbackUrls', ctx) ?? {}),
    rules: req.rules === undefined ? current.rules : req.rules === null ? [] : checkRules(req.rules, 'rules', ctx),
    forwardQuery: req.forwardQuery ?? current.forwardQuery,
    utm: req.utm === undefined ? current.utm : req.utm === null ? {} : (checkUtm(req.utm, 'utm') ?? {}),
  };
  if (!routed) {
    if (next.rules.length > 0) throw new ValidationError(`rules: apply only to url, whatsapp and email codes, not ${contentType}`);
    if (Object.keys(next.utm).length > 0)
      throw new ValidationError(`utm: applies only to url, whatsapp and email codes, not ${contentType}`);
  }
  return next;
}
