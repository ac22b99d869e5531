// The semantic check of smart-redirect input: rules, UTM parameters and fallback URLs. Every
// error names its exact path (`rules[3].conditions[1].values[0]: not an ISO 3166-1 country
// code`), and what passes comes back normalised, so the compiler and the database only ever
// see clean values. Defensive about shapes too: import and the CLI may call it without the
// TypeBox check in front.
import { randomBase62 } from '../accounts/api-key.ts';
import { ValidationError } from '../errors.ts';
import { CONTROL_CHAR, normalizeHttpUrl } from '../payload/url.ts';
import { isOwnShortLink } from '../qr-items/short-code.ts';
import { countryCode } from '../scans/country-codes.ts';
import { checkTimeZone } from '../stats/time-zones.ts';
import { normalizeInstant } from './date-time.ts';
import {
  BROWSER_VALUES,
  CONDITION_TYPES,
  type ConditionType,
  DATE_OPS,
  DEVICE_VALUES,
  FALLBACK_FIELDS,
  type FallbackUrls,
  OS_VALUES,
  RULE_LIMITS,
  type Rule,
  type RuleCondition,
  type RuleInput,
  SET_OPS,
  type SplitVariant,
  UTM_FIELDS,
  type Utm,
  WEEKDAY_VALUES,
} from './rules-schema.ts';

export interface RuleCheckOptions {
  /** The service's public base URL: destinations must not lead back to its short links (a loop that counts every hop). */
  publicBaseUrl?: string;
  /** Ids for rules that come without one; `r_` + 8 base62 characters by default. */
  newId?: () => string;
}

const RULE_ID = /^[A-Za-z0-9_-]{1,32}$/;
const TIME_WINDOW = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]|24):([0-5]\d)$/;
const LANGUAGE_TAG = /^[a-z]{2,3}(?:-[a-z0-9]{1,8})*$/i;
const RULE_KEYS = new Set(['id', 'name', 'conditions', 'destination', 'split']);
const CONDITION_KEYS = new Set(['type', 'op', 'values', 'key', 'tz']);
const VARIANT_KEYS = new Set(['destination', 'weight']);

function fail(field: string, rule: string): never {
  throw new ValidationError(`${field}: ${rule}`);
}

/** A new rule id: `r_` and 8 base62 characters (62^8 ≈ 2e14; ids only need to be unique within one item). */
export function newRuleId(): string {
  return `r_${randomBase62(8)}`;
}

/**
 * Checks and normalises an item's rules. Keeps given ids (refusing duplicates), gives one to
 * each rule without, and returns fresh objects: nothing unknown passes through.
 */
export function checkRules(input: readonly RuleInput[], path = 'rules', options: RuleCheckOptions = {}): Rule[] {
  if (!Array.isArray(input)) fail(path, 'must be a list of rules');
  if (input.length > RULE_LIMITS.rules) fail(path, `at most ${RULE_LIMITS.rules} rules (got ${input.length})`);
  const seen = new Map<string, number>();
  input.forEach((raw, i) => {
    const id = (raw as { id?: unknown } | null)?.id;
    if (id === undefined) return;
    if (typeof id !== 'string' || !RULE_ID.test(id)) fail(`${path}[${i}].id`, 'must be 1 to 32 letters, digits, _ or -');
    const first = seen.get(id as string);
    if (first !== undefined) fail(`${path}[${i}].id`, `duplicates ${path}[${first}].id`);
    seen.set(id as string, i);
  });
  const newId = options.newId ?? newRuleId;
  const rules = input.map((raw, i) => {
    let id = (raw as { id?: string }).id;
    while (id === undefined || (seen.has(id) && seen.get(id) !== i)) id = newId();
    seen.set(id, i);
    return checkRule(raw, `${path}[${i}]`, id, options);
  });
  checkTotals(rules, path);
  return rules;
}

/** What all the rules hold together stays within what the short link compiles quickly. */
function checkTotals(rules: readonly Rule[], path: string): void {
  let values = 0;
  let chars = 0;
  for (const rule of rules) {
    for (const c of rule.conditions) {
      values += c.values.length;
      chars += c.key?.length ?? 0;
      for (const v of c.values) chars += v.length;
    }
  }
  if (values > RULE_LIMITS.totalValues) fail(path, `at most ${RULE_LIMITS.totalValues} condition values in all (got ${values})`);
  if (chars > RULE_LIMITS.totalValueChars) {
    fail(path, `at most ${RULE_LIMITS.totalValueChars} characters of condition values and keys in all (got ${chars})`);
  }
}

function checkRule(raw: unknown, path: string, id: string, options: RuleCheckOptions): Rule {
  const r = objectAt(raw, path, RULE_KEYS);
  const rule: Rule = { id, conditions: [] };
  if (r.name !== undefined && r.name !== null) {
    const name = checkText(r.name, `${path}.name`, RULE_LIMITS.nameLength).trim();
    if (name !== '') rule.name = name;
  }
  const conditions = r.conditions ?? [];
  if (!Array.isArray(conditions)) fail(`${path}.conditions`, 'must be a list of conditions');
  if (conditions.length > RULE_LIMITS.conditions) {
    fail(`${path}.conditions`, `at most ${RULE_LIMITS.conditions} conditions a rule (got ${conditions.length})`);
  }
  rule.conditions = conditions.map((c: unknown, j: number) => checkCondition(c, `${path}.conditions[${j}]`));
  const hasDestination = r.destination !== undefined && r.destination !== null;
  const hasSplit = r.split !== undefined && r.split !== null;
  if (hasDestination === hasSplit) fail(path, 'needs exactly one of destination and split');
  if (hasDestination) rule.destination = checkDestination(r.destination, `${path}.destination`, options);
  else rule.split = checkSplit(r.split, `${path}.split`, options);
  return rule;
}

function checkSplit(raw: unknown, path: string, options: RuleCheckOptions): SplitVariant[] {
  if (!Array.isArray(raw)) return fail(path, 'must be a list of variants');
  if (raw.length < RULE_LIMITS.variantsMin || raw.length > RULE_LIMITS.variantsMax) {
    fail(path, `needs ${RULE_LIMITS.variantsMin} to ${RULE_LIMITS.variantsMax} variants`);
  }
  const variants = raw.map((v: unknown, k: number) => {
    const o = objectAt(v, `${path}[${k}]`, VARIANT_KEYS);
    const weight = o.weight;
    if (typeof weight !== 'number' || !Number.isInteger(weight) || weight < 0 || weight > 100) {
      fail(`${path}[${k}].weight`, 'must be an integer between 0 and 100');
    }
    return { destination: checkDestination(o.destination, `${path}[${k}].destination`, options), weight: weight as number };
  });
  const sum = variants.reduce((s, v) => s + v.weight, 0);
  if (sum !== 100) fail(path, `weights must sum to 100 (they sum to ${sum})`);
  return variants;
}

function checkCondition(raw: unknown, path: string): RuleCondition {
  const c = objectAt(raw, path, CONDITION_KEYS);
  const type = c.type as ConditionType;
  if (typeof type !== 'string' || !(CONDITION_TYPES as readonly string[]).includes(type)) {
    fail(`${path}.type`, `must be one of ${CONDITION_TYPES.join(', ')}`);
  }
  const ops: readonly string[] = type === 'date' ? DATE_OPS : SET_OPS;
  if (typeof c.op !== 'string' || !ops.includes(c.op)) fail(`${path}.op`, `must be ${ops.join(' or ')}`);
  if (c.key !== undefined && type !== 'query') fail(`${path}.key`, 'only query conditions take a key');
  if (c.tz !== undefined && type !== 'time' && type !== 'weekday') fail(`${path}.tz`, 'only time and weekday conditions take a time zone');
  const raws = checkValueList(c.values, `${path}.values`);
  const at = (k: number) => `${path}.values[${k}]`;
  const condition: RuleCondition = { type, op: c.op as string, values: [] };
  switch (type) {
    case 'os':
      condition.values = raws.map((v, k) => oneOf(v.toLowerCase(), OS_VALUES, at(k)));
      break;
    case 'device':
      condition.values = raws.map((v, k) => oneOf(v.toLowerCase(), DEVICE_VALUES, at(k)));
      break;
    case 'browser':
      condition.values = raws.map((v, k) =>
        (BROWSER_VALUES as readonly string[]).includes(v.toLowerCase()) ? v.toLowerCase() : fail(at(k), 'not a known browser family'),
      );
      break;
    case 'country':
      condition.values = raws.map((v, k) => countryCode(v) ?? fail(at(k), 'not an ISO 3166-1 country code'));
      break;
    case 'language':
      condition.values = raws.map((v, k) => languageTag(v) ?? fail(at(k), 'not a language tag such as de or en-US'));
      break;
    case 'query': {
      if (typeof c.key !== 'string' || c.key === '') fail(`${path}.key`, 'query conditions need the parameter name');
      condition.key = checkText(c.key, `${path}.key`, RULE_LIMITS.valueLength);
      condition.values = raws;
      return dedupe(condition);
    }
    case 'date':
      if (raws.length !== 1) fail(`${path}.values`, 'must hold exactly one ISO 8601 date-time');
      condition.values = [normalizeInstant(raws[0], at(0))];
      return condition;
    case 'time':
      condition.values = raws.map((v, k) => timeWindow(v, at(k)));
      condition.tz = zone(c.tz, `${path}.tz`);
      break;
    case 'weekday':
      condition.values = raws.map((v, k) => oneOf(v.toLowerCase(), WEEKDAY_VALUES, at(k)));
      condition.tz = zone(c.tz, `${path}.tz`);
      break;
  }
  if (condition.values.length === 0) fail(`${path}.values`, 'must list at least one value');
  return dedupe(condition);
}

function dedupe(c: RuleCondition): RuleCondition {
  c.values = [...new Set(c.values)];
  return c;
}

function checkValueList(raw: unknown, path: string): string[] {
  if (!Array.isArray(raw)) return fail(path, 'must be a list of strings');
  if (raw.length > RULE_LIMITS.values) fail(path, `at most ${RULE_LIMITS.values} values (got ${raw.length})`);
  return raw.map((v: unknown, k: number) => checkText(v, `${path}[${k}]`, RULE_LIMITS.valueLength).trim());
}

function oneOf<T extends string>(value: string, allowed: readonly T[], field: string): T {
  return (allowed as readonly string[]).includes(value) ? (value as T) : fail(field, `must be one of ${allowed.join(', ')}`);
}

/** `de`, `en-US`, `zh-Hant-TW`: the primary subtag lower-case, a region upper, a script title-case. */
function languageTag(value: string): string | null {
  if (value.length > 35 || !LANGUAGE_TAG.test(value)) return null;
  return value
    .split('-')
    .map((part, i) => {
      if (i === 0) return part.toLowerCase();
      if (part.length === 2) return part.toUpperCase();
      if (part.length === 4 && /^[a-z]+$/i.test(part)) return part[0]!.toUpperCase() + part.slice(1).toLowerCase();
      return part.toLowerCase();
    })
    .join('-');
}

/** `HH:MM-HH:MM`, local wall time; 24:00 only as an end; a start after the end wraps midnight. */
function timeWindow(value: string, field: string): string {
  const m = TIME_WINDOW.exec(value);
  if (m === null || m[1] === '24') return fail(field, 'must look like 09:00-17:00');
  if (m[3] === '24' && m[4] !== '00') fail(field, 'must look like 09:00-17:00');
  if (`${m[1]}:${m[2]}` === `${m[3]}:${m[4]}`) fail(field, 'start and end must differ');
  return value;
}

/** The zone in its proper spelling; UTC when none is given. */
function zone(raw: unknown, field: string): string {
  if (raw === undefined) return 'UTC';
  if (typeof raw !== 'string') return fail(field, 'not an IANA time zone');
  try {
    return checkTimeZone(raw);
  } catch {
    return fail(field, 'not an IANA time zone');
  }
}

/** A redirect destination, normalised as a url item's: http(s), no credentials, ≤ 2048 characters, not one of our short links. */
export function checkDestination(raw: unknown, field: string, options: RuleCheckOptions = {}): string {
  if (typeof raw !== 'string') return fail(field, 'must be an http or https URL');
  if (raw.length > RULE_LIMITS.urlLength) fail(field, `must be at most ${RULE_LIMITS.urlLength} characters`);
  const url = normalizeHttpUrl(raw, field);
  if (url.length > RULE_LIMITS.urlLength) fail(field, `must be at most ${RULE_LIMITS.urlLength} characters once encoded`);
  if (options.publicBaseUrl !== undefined && isOwnShortLink(url, options.publicBaseUrl)) {
    fail(field, `must not point at a short link of this service (${options.publicBaseUrl}/r/…); it would redirect to itself`);
  }
  return url;
}

/** Fallback URLs by state; null or absent entries are dropped. Null when none is left. */
export function checkFallbackUrls(input: unknown, path = 'fallbackUrls', options: RuleCheckOptions = {}): FallbackUrls | null {
  if (input === null || input === undefined) return null;
  const o = objectAt(input, path, new Set(FALLBACK_FIELDS));
  const out: FallbackUrls = {};
  for (const key of FALLBACK_FIELDS) {
    if (o[key] !== undefined && o[key] !== null) out[key] = checkDestination(o[key], `${path}.${key}`, options);
  }
  return Object.keys(out).length === 0 ? null : out;
}

/** UTM values, trimmed; empty or null entries are dropped. Null when none is left. */
export function checkUtm(input: unknown, path = 'utm'): Utm | null {
  if (input === null || input === undefined) return null;
  const o = objectAt(input, path, new Set(UTM_FIELDS));
  const out: Utm = {};
  for (const key of UTM_FIELDS) {
    if (o[key] === undefined || o[key] === null) continue;
    const value = checkText(o[key], `${path}.${key}`, RULE_LIMITS.utmLength).trim();
    if (value !== '') out[key] = value;
  }
  return Object.keys(out).length === 0 ? null : out;
}

function objectAt(raw: unknown, path: string, known: ReadonlySet<string>): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail(path, 'must be an object');
  for (const key of Object.keys(raw)) if (!known.has(key)) fail(`${path}.${key}`, 'is not a known field');
  return raw as Record<string, unknown>;
}

function checkText(raw: unknown, field: string, max: number): string {
  if (typeof raw !== 'string' || raw.length > max) return fail(field, `must be a string of at most ${max} characters`);
  if (CONTROL_CHAR.test(raw)) fail(field, 'must not contain control characters');
  return raw;
}
