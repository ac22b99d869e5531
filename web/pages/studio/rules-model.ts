// Smart-redirect rules as the studio edits them: an ordered list, each rule with conditions
// and either one destination or a split of weighted variants. Values are kept as the inputs
// show them (a time window as from/to, a date as local text) and turned into the API's
// shape (product-decisions §11) only when saved; the checks mirror the API's limits, so a
// rule the server would refuse is marked before it is sent.
import {
  BROWSER_VALUES,
  CONDITION_TYPES,
  type ConditionType,
  type DateOp,
  DEVICE_VALUES,
  OS_VALUES,
  RULE_LIMITS,
  type RuleCondition,
  type RuleInput,
  type SetOp,
  WEEKDAY_VALUES,
} from '../../../src/domain/dynamic/rules-schema.ts';
import { countryCode } from '../../../src/domain/scans/country-codes.ts';
import { browserZone, isoOf, localInput, urlError } from './lifecycle-model.ts';
import { normalizeHttpUrl } from '../../../src/domain/payload/index.ts';

export const RULES_MAX = RULE_LIMITS.rules;
export const CONDITIONS_MAX = RULE_LIMITS.conditions;
export const VARIANTS_MIN = RULE_LIMITS.variantsMin;
export const VARIANTS_MAX = RULE_LIMITS.variantsMax;

export { CONDITION_TYPES, type ConditionType };
export type ConditionOp = SetOp | DateOp;
/** A condition and a rule as the API reads and writes them. */
export type ConditionBody = RuleCondition;
export type RuleBody = RuleInput;

export const CONDITION_LABELS: Record<ConditionType, string> = {
  os: 'Operating system',
  device: 'Device',
  browser: 'Browser',
  country: 'Country',
  language: 'Language',
  query: 'Query parameter',
  date: 'Date',
  time: 'Time of day',
  weekday: 'Day of the week',
};

const OS_LABELS: Record<(typeof OS_VALUES)[number], string> = {
  ios: 'iOS',
  android: 'Android',
  windows: 'Windows',
  macos: 'macOS',
  linux: 'Linux',
  chromeos: 'ChromeOS',
};
const DEVICE_LABELS: Record<(typeof DEVICE_VALUES)[number], string> = { mobile: 'Phone', tablet: 'Tablet', desktop: 'Computer' };
const WEEKDAY_LABELS: Record<(typeof WEEKDAY_VALUES)[number], string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};
const choices = <V extends string>(labels: Record<V, string>, order: readonly V[]) =>
  order.map((value) => ({ value, label: labels[value] }));

/** The values a checkbox condition offers, with their labels; the week starts on Monday (the API's list, on Sunday). */
export const CHOICES: Partial<Record<ConditionType, ReadonlyArray<{ value: string; label: string }>>> = {
  os: choices(OS_LABELS, OS_VALUES),
  device: choices(DEVICE_LABELS, DEVICE_VALUES),
  weekday: choices(WEEKDAY_LABELS, [...WEEKDAY_VALUES.slice(1), WEEKDAY_VALUES[0]]),
};

/** Types whose values are typed as a comma-separated list. */
const LISTED: ReadonlySet<ConditionType> = new Set(['language', 'query']);
/** Types read in a time zone. */
export const ZONED: ReadonlySet<ConditionType> = new Set(['time', 'weekday']);

export interface ConditionDraft {
  /** The editor's own id: stable across reordering, for element ids and keys. */
  uid: string;
  type: ConditionType;
  op: ConditionOp;
  /** Checked values (os, device, weekday), countries (codes), browsers, or [date as datetime-local]. */
  values: string[];
  /** language and query values as typed: "de, en-US". */
  text: string;
  /** The query parameter's name. */
  key: string;
  /** time: "HH:MM". */
  from: string;
  to: string;
  tz: string;
}

export interface VariantDraft {
  destination: string;
  weight: string;
}

export interface RuleDraft {
  uid: string;
  /** The server's id, kept so the stats of a saved rule stay its own. */
  id: string | undefined;
  name: string;
  conditions: ConditionDraft[];
  mode: 'destination' | 'split';
  destination: string;
  split: VariantDraft[];
}

let counter = 0;
const uid = (prefix: string) => `${prefix}${++counter}`;

export function newCondition(type: ConditionType = 'os'): ConditionDraft {
  return {
    uid: uid('c'),
    type,
    op: type === 'date' ? 'after' : 'in',
    values: [],
    text: '',
    key: '',
    from: '09:00',
    to: '17:00',
    tz: browserZone(),
  };
}

export function newRule(): RuleDraft {
  return { uid: uid('r'), id: undefined, name: '', conditions: [newCondition()], mode: 'destination', destination: '', split: [] };
}

/** Two even variants to start a split, the first sending where the rule did. */
export function startSplit(rule: RuleDraft): VariantDraft[] {
  return rule.split.length >= VARIANTS_MIN
    ? rule.split
    : [
        { destination: rule.destination, weight: '50' },
        { destination: '', weight: '50' },
      ];
}

export function rulesOf(bodies: readonly RuleBody[] | undefined): RuleDraft[] {
  return (bodies ?? []).map((b) => ({
    uid: uid('r'),
    id: b.id,
    name: b.name ?? '',
    conditions: b.conditions.map(conditionOf),
    mode: b.split ? 'split' : 'destination',
    destination: b.destination ?? '',
    split: (b.split ?? []).map((v) => ({ destination: v.destination, weight: String(v.weight) })),
  }));
}

function conditionOf(c: ConditionBody): ConditionDraft {
  // The API answers only the types and ops it checked: its schema types them as strings.
  const type = c.type as ConditionType;
  const base = newCondition(type);
  const [from, to] = type === 'time' ? (c.values[0] ?? '').split('-') : [];
  return {
    ...base,
    op: c.op as ConditionOp,
    values: type === 'date' ? [localInput(c.values[0] ?? null)] : LISTED.has(type) ? [] : c.values,
    text: LISTED.has(type) ? c.values.join(', ') : '',
    key: c.key ?? '',
    from: from ?? base.from,
    to: to ?? base.to,
    tz: c.tz ?? base.tz,
  };
}

export function ruleBodies(rules: readonly RuleDraft[]): RuleBody[] {
  return rules.map((r) => ({
    ...(r.id ? { id: r.id } : {}),
    ...(r.name.trim() ? { name: r.name.trim() } : {}),
    conditions: r.conditions.map(conditionBody),
    ...(r.mode === 'split'
      ? { split: r.split.map((v) => ({ destination: normalized(v.destination), weight: Number(v.weight) })) }
      : { destination: normalized(r.destination) }),
  }));
}

function conditionBody(c: ConditionDraft): ConditionBody {
  const values =
    c.type === 'date'
      ? [isoOf(c.values[0] ?? '') ?? '']
      : c.type === 'time'
        ? [`${c.from}-${c.to}`]
        : LISTED.has(c.type)
          ? listed(c.text)
          : c.values;
  return {
    type: c.type,
    op: c.op,
    values,
    ...(c.type === 'query' ? { key: c.key.trim() } : {}),
    ...(ZONED.has(c.type) ? { tz: c.tz } : {}),
  };
}

/** "de, en-US" → ['de', 'en-US']. */
export function listed(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function normalized(url: string): string {
  try {
    return normalizeHttpUrl(url, 'url');
  } catch {
    return url.trim();
  }
}

/** The sum of a split's weights, blank weights counting 0. */
export function weightSum(split: readonly VariantDraft[]): number {
  return split.reduce((n, v) => n + (Number(v.weight) || 0), 0);
}

/**
 * Problems keyed by where the form shows them: `<rule uid>-destination`, `<rule uid>-split`
 * (the sum), `<rule uid>-v<i>` and `<rule uid>-w<i>` (a variant's address and weight),
 * `<condition uid>` (its values), `<rule uid>-conditions` and `rules` (too many: only a draft kept from elsewhere has them).
 */
export function checkRules(rules: readonly RuleDraft[]): Record<string, string> {
  const errors: Record<string, string> = {};
  if (rules.length > RULES_MAX) errors.rules = `At most ${RULES_MAX} rules: remove ${rules.length - RULES_MAX}`;
  for (const r of rules) {
    if (r.conditions.length > CONDITIONS_MAX) errors[`${r.uid}-conditions`] = `At most ${CONDITIONS_MAX} conditions a rule`;
    for (const c of r.conditions) {
      const e = conditionError(c);
      if (e) errors[c.uid] = e;
    }
    if (r.mode === 'destination') {
      const e = r.destination.trim() === '' ? 'Enter where this rule sends visitors' : urlError(r.destination);
      if (e) errors[`${r.uid}-destination`] = e;
      continue;
    }
    r.split.forEach((v, i) => {
      const e = v.destination.trim() === '' ? 'Enter where this variant sends visitors' : urlError(v.destination);
      if (e) errors[`${r.uid}-v${i}`] = e;
      // 0 is allowed: a variant paused without losing its place (the stats name variants by place).
      if (!/^\d+$/.test(v.weight.trim()) || Number(v.weight) > 100) {
        errors[`${r.uid}-w${i}`] = 'A whole number from 0 to 100';
      }
    });
    if (r.split.length < VARIANTS_MIN || r.split.length > VARIANTS_MAX) {
      errors[`${r.uid}-split`] = `A split has ${VARIANTS_MIN} to ${VARIANTS_MAX} variants`;
    } else if (weightSum(r.split) !== 100) {
      errors[`${r.uid}-split`] = `The weights must add up to 100 (now ${weightSum(r.split)})`;
    }
  }
  return errors;
}

function conditionError(c: ConditionDraft): string | undefined {
  switch (c.type) {
    case 'os':
    case 'device':
    case 'weekday':
      return c.values.length === 0 ? 'Choose at least one' : undefined;
    case 'country':
      return c.values.length === 0
        ? 'Add at least one country'
        : c.values.find((v) => countryCode(v) === null)
          ? 'Not a country'
          : undefined;
    case 'browser':
      return c.values.length === 0 ? 'Add at least one browser' : undefined;
    case 'language':
      return listed(c.text).length === 0
        ? 'Enter at least one language, e.g. de or en-US'
        : listed(c.text).some((t) => !/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(t))
          ? 'Languages are tags such as de, en or en-US'
          : undefined;
    case 'query':
      return c.key.trim() === '' ? 'Enter the parameter’s name' : undefined;
    case 'date':
      return isoOf(c.values[0] ?? '') === null ? 'Choose a date and a time' : undefined;
    case 'time':
      return !/^\d\d:\d\d$/.test(c.from) || !/^\d\d:\d\d$/.test(c.to)
        ? 'Choose both times'
        : c.from === c.to
          ? 'The window needs two different times'
          : undefined;
  }
}

/**
 * Where the form shows an error the server named by its path: `rules[1].conditions[0].values[0]`
 * under that condition, `rules[1].split[2].weight` under that weight, anything else of a rule
 * under the rule (`<uid>-server`); the lifecycle's fields under themselves.
 */
export function fieldOfPath(path: string, rules: readonly RuleDraft[]): string {
  const m = /^rules\[(\d+)\](.*)$/.exec(path);
  if (!m) return path;
  const rule = rules[Number(m[1])];
  if (!rule) return 'rules';
  const rest = m[2] ?? '';
  const cond = /^\.conditions\[(\d+)\]/.exec(rest);
  const condition = cond ? rule.conditions[Number(cond[1])] : undefined;
  if (condition) return condition.uid;
  const variant = /^\.split\[(\d+)\]\.(destination|weight)/.exec(rest);
  if (variant) return `${rule.uid}-${variant[2] === 'weight' ? 'w' : 'v'}${variant[1]}`;
  if (rest === '.split') return `${rule.uid}-split`;
  if (rest === '.destination') return `${rule.uid}-destination`;
  return `${rule.uid}-server`;
}

/** Every ISO 3166-1 code the API takes, with its name in the browser's language, sorted by name. */
let countries: Array<{ code: string; name: string }> | null = null;
export function countryList(): Array<{ code: string; name: string }> {
  if (countries) return countries;
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const names = new Intl.DisplayNames(undefined, { type: 'region' });
  // The API's own list (country-codes.ts) exports only its check: every pair of letters is asked.
  const codes = [...letters].flatMap((a) => [...letters].map((b) => a + b)).filter((c) => countryCode(c) !== null);
  countries = codes.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) => a.name.localeCompare(b.name));
  return countries;
}

export function countryName(code: string): string {
  return countryList().find((c) => c.code === code)?.name ?? code;
}

/** How people write the browser families whose lower-case API name would read wrong title-cased. */
const BROWSER_NAMES: Readonly<Record<string, string>> = {
  ie: 'Internet Explorer',
  x: 'X (in-app browser)',
  'uc browser': 'UC Browser',
  'miui browser': 'MIUI Browser',
  qqbrowser: 'QQ Browser',
  duckduckgo: 'DuckDuckGo',
  kakaotalk: 'KakaoTalk',
  linkedin: 'LinkedIn',
  tiktok: 'TikTok',
  wechat: 'WeChat',
  'opera gx': 'Opera GX',
  'coc coc': 'Cốc Cốc',
  webkit: 'WebKit',
};

/** The browser families the API knows (the classifier's, lower-case), by name. */
export function browserList(): Array<{ code: string; name: string }> {
  return BROWSER_VALUES.map((code) => ({ code, name: BROWSER_NAMES[code] ?? code.replace(/\b\w/g, (ch) => ch.toUpperCase()) })).sort(
    (a, b) => a.name.localeCompare(b.name),
  );
}

/** Every IANA zone the browser knows, the browser's own among them. */
export function timeZones(): string[] {
  const own = browserZone();
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return all.includes(own) ? all : [own, ...all];
}
