// Dynamic codes, pure: lifecycle status, smart-redirect rules (check → compile → match) and
// query passthrough. The short link and the API call these; nothing here knows HTTP or SQL.
export { checkDestination, checkFallbackUrls, checkRules, checkUtm, newRuleId, type RuleCheckOptions } from './check-rules.ts';
export {
  type CompiledRules,
  compileRules,
  NO_MATCH,
  type QueryLookup,
  type RuleInputs,
  type RuleMatch,
  splitBucket,
  type VisitorContext,
} from './compile-rules.ts';
export { normalizeInstant, parseInstant } from './date-time.ts';
export * from './lifecycle.ts';
export { localMinuteOfDay, localWeekday, zoneOffsetMs } from './local-clock.ts';
export { capQuery, MAX_FORWARDED_QUERY, withQuery } from './passthrough.ts';
export * from './rules-schema.ts';
export { type RulesTestItem, testRules } from './try-rules.ts';
export { parseAcceptLanguage, queryLookup, type VisitInput, visitorContext, visitorFromTest } from './visitor-context.ts';
