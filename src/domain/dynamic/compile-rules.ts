// Checked rules → a matcher, built once when an item enters the cache. Each condition becomes a
// predicate over precomputed sets, minutes and bitmasks; a scan walks the rules in order and
// stops at the first whose conditions all hold. No regex, no parsing and no allocation per
// scan: the answers are built here too, one per destination rule and one per split variant.
import type { DeviceClass } from '../scans/classify-agent.ts';
import { localMinuteOfDay, localWeekday, zoneOffsetMs } from './local-clock.ts';
import { type Rule, type RuleCondition, WEEKDAY_VALUES } from './rules-schema.ts';

/** What a query condition reads: URLSearchParams fits. */
export interface QueryLookup {
  get(name: string): string | null;
  has(name: string): boolean;
}

/** The visitor as rules see it; build it with visitorContext (visitor-context.ts). */
export interface VisitorContext {
  /** Lower-case: ios, android, windows, macos, linux, chromeos, or another lower-case name; null unknown. */
  os: string | null;
  device: DeviceClass;
  /** Lower-case family name as classifyUserAgent gives it (`samsung internet`); null unknown. */
  browser: string | null;
  /** ISO 3166-1 alpha-2, upper-case; null unknown. */
  country: string | null;
  /** Accept-Language tags, lower-case, most preferred first. */
  languages: readonly string[];
  query: QueryLookup;
  nowMs: number;
  /** The visitor's cookie id or visitor hash: the same visitor gets the same split variant all (UTC) day. */
  stickyKey: string;
}

export interface RuleMatch {
  readonly rule: Rule | null;
  /** Index of the split variant; null for a destination rule or no match. */
  readonly variant: number | null;
  /** Null: the item's own destination. */
  readonly destination: string | null;
}

/** Which parts of a visit the rules read, so the short link can skip the rest. */
export interface RuleInputs {
  agent: boolean;
  country: boolean;
  language: boolean;
  query: boolean;
}

export interface CompiledRules {
  readonly rules: readonly Rule[];
  readonly uses: Readonly<RuleInputs>;
  match(visitor: VisitorContext): RuleMatch;
}

type Test = (v: VisitorContext) => boolean;

interface CompiledRule {
  tests: Test[];
  /** A destination rule's one answer. */
  fixed: RuleMatch | null;
  /** A split's answers by variant, and cumulative weights: variant k takes buckets [cumulative[k-1], cumulative[k]). */
  variants: RuleMatch[];
  cumulative: number[];
  id: string;
}

export const NO_MATCH: RuleMatch = Object.freeze({ rule: null, variant: null, destination: null });

export function compileRules(rules: readonly Rule[]): CompiledRules {
  const uses: RuleInputs = { agent: false, country: false, language: false, query: false };
  const compiled = rules.map((rule) => compileRule(rule, uses));
  const n = compiled.length;
  return {
    rules,
    uses: Object.freeze(uses),
    match(v: VisitorContext): RuleMatch {
      for (let i = 0; i < n; i++) {
        const r = compiled[i]!;
        const tests = r.tests;
        let holds = true;
        for (let j = 0; j < tests.length && holds; j++) holds = tests[j]!(v);
        if (!holds) continue;
        if (r.fixed !== null) return r.fixed;
        const bucket = splitBucket(v.stickyKey, r.id, Math.floor(v.nowMs / 86_400_000));
        for (let k = 0; k < r.cumulative.length; k++) if (bucket < r.cumulative[k]!) return r.variants[k]!;
        return r.variants[r.variants.length - 1]!; // unreachable: weights sum to 100
      }
      return NO_MATCH;
    },
  };
}

function compileRule(rule: Rule, uses: RuleInputs): CompiledRule {
  // All conditions must hold and none has side effects, so the cheap set lookups go first and
  // the clock is read only for visitors who pass them.
  const conditions = [...rule.conditions].sort((a, b) => cost(a) - cost(b));
  const tests = conditions.map((c) => compileCondition(c, uses));
  if (rule.split === undefined) {
    return {
      tests,
      fixed: Object.freeze({ rule, variant: null, destination: rule.destination ?? null }),
      variants: [],
      cumulative: [],
      id: rule.id,
    };
  }
  let sum = 0;
  const cumulative = rule.split.map((s) => (sum += s.weight));
  const variants = rule.split.map((s, k) => Object.freeze({ rule, variant: k, destination: s.destination }));
  return { tests, fixed: null, variants, cumulative, id: rule.id };
}

function cost(c: RuleCondition): number {
  return c.type === 'time' || c.type === 'weekday' ? 2 : c.type === 'language' || c.type === 'query' ? 1 : 0;
}

function compileCondition(c: RuleCondition, uses: RuleInputs): Test {
  // A zone this Node's ICU does not know (stored under another version) would throw on every
  // scan; the condition then never holds, and the link keeps answering.
  if (c.tz !== undefined && !knownZone(c.tz)) return () => false;
  const test = positiveTest(c, uses);
  if (c.op === 'not_in') return (v) => !test(v);
  return test;
}

/** The `in` (or date) form of a condition; `not_in` negates it, so an unknown value is "not in" every list. */
function positiveTest(c: RuleCondition, uses: RuleInputs): Test {
  switch (c.type) {
    case 'os': {
      uses.agent = true;
      const set = new Set(c.values);
      return (v) => v.os !== null && set.has(v.os);
    }
    case 'device': {
      uses.agent = true;
      const set = new Set(c.values);
      return (v) => set.has(v.device);
    }
    case 'browser': {
      uses.agent = true;
      const set = new Set(c.values);
      return (v) => v.browser !== null && set.has(v.browser);
    }
    case 'country': {
      uses.country = true;
      const set = new Set(c.values);
      return (v) => v.country !== null && set.has(v.country);
    }
    case 'language': {
      uses.language = true;
      const tags = c.values.map((t) => t.toLowerCase());
      return (v) => {
        const preferred = v.languages[0];
        if (preferred === undefined) return false;
        for (let i = 0; i < tags.length; i++) if (matchesTag(preferred, tags[i]!)) return true;
        return false;
      };
    }
    case 'query': {
      uses.query = true;
      const key = c.key ?? '';
      if (c.values.length === 0) return (v) => v.query.has(key);
      const set = new Set(c.values);
      return (v) => {
        const value = v.query.get(key);
        return value !== null && set.has(value);
      };
    }
    case 'date': {
      const at = Date.parse(c.values[0]!);
      return c.op === 'before' ? (v) => v.nowMs < at : (v) => v.nowMs >= at;
    }
    case 'time': {
      const tz = c.tz ?? 'UTC';
      const starts = c.values.map((w) => minutes(w.slice(0, 5)));
      const ends = c.values.map((w) => minutes(w.slice(6, 11)));
      return (v) => {
        const m = localMinuteOfDay(tz, v.nowMs);
        for (let i = 0; i < starts.length; i++) {
          const start = starts[i]!;
          const end = ends[i]!;
          // A start after the end wraps midnight: 22:00-06:00 is late evening or early morning.
          if (start < end ? m >= start && m < end : m >= start || m < end) return true;
        }
        return false;
      };
    }
    case 'weekday': {
      const tz = c.tz ?? 'UTC';
      let mask = 0;
      for (const d of c.values) mask |= 1 << (WEEKDAY_VALUES as readonly string[]).indexOf(d);
      return (v) => ((mask >> localWeekday(tz, v.nowMs)) & 1) === 1;
    }
    default:
      // checkRules lets no other type through; a stored rule of a newer version never matches.
      return () => false;
  }
}

function knownZone(tz: string): boolean {
  try {
    zoneOffsetMs(tz, Date.now());
    return true;
  } catch {
    return false;
  }
}

/**
 * The visitor's most preferred language against a condition tag: `de` takes `de`, `de-at`,
 * `de-ch`; `en-us` takes `en-us` only. Only the first preference counts: a visitor who reads
 * English first and German third still gets the English page.
 */
function matchesTag(visitor: string, tag: string): boolean {
  return visitor === tag || (visitor.length > tag.length && visitor.startsWith(tag) && visitor.charCodeAt(tag.length) === 45) /* - */;
}

/** `17:00` → 1020; `24:00` (an end) → 1440. */
function minutes(hhmm: string): number {
  return Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
}

/**
 * The split bucket 0–99 of a visitor on a UTC day: FNV-1a over the sticky key, the rule id and
 * the day number, finished with murmur3's fmix32 (FNV's low bits alone are uneven mod 100).
 * Not cryptographic, and needs not be: it only has to spread visitors evenly and repeat
 * itself for the same visitor, rule and day.
 */
export function splitBucket(stickyKey: string, ruleId: string, utcDay: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < stickyKey.length; i++) h = Math.imul(h ^ stickyKey.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ 0, 0x01000193);
  for (let i = 0; i < ruleId.length; i++) h = Math.imul(h ^ ruleId.charCodeAt(i), 0x01000193);
  for (let i = 0; i < 4; i++) h = Math.imul(h ^ ((utcDay >>> (i * 8)) & 0xff), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) % 100;
}
