// Smart redirects, written once: the vocabularies, the limits and the TypeBox schemas of rules,
// UTM parameters, fallback URLs and the rules/test request (product-decisions §11). The shapes
// are deliberately loose (a condition's `type` and `op` are plain strings): checkRules
// (check-rules.ts) knows which values each type takes and answers with the exact path, e.g.
// `rules[3].conditions[1].values[0]: not an ISO 3166-1 country code`. Browser-safe: TypeBox only.
import { type Static, Type } from 'typebox';
import { named, Text } from '../schema-kit.ts';

export const RULE_LIMITS = {
  rules: 25,
  conditions: 10,
  values: 50,
  valueLength: 200,
  // All of an item's rules together: a code's rules are compiled on the thread that answers
  // short links whenever it enters their cache, and 25 × 10 × 50 values of 200 characters took
  // 5-9 ms there; within these, under half a millisecond (docs/dynamic-codes.md#limits-and-errors).
  totalValues: 2_000,
  totalValueChars: 100_000,
  nameLength: 100,
  idLength: 32,
  variantsMin: 2,
  variantsMax: 10,
  urlLength: 2048,
  utmLength: 200,
  testQueryParams: 50,
} as const;

export const CONDITION_TYPES = ['os', 'device', 'browser', 'country', 'language', 'query', 'date', 'time', 'weekday'] as const;
export type ConditionType = (typeof CONDITION_TYPES)[number];

/** `in`/`not_in` for every type but `date`, which takes `before`/`after`. */
export const SET_OPS = ['in', 'not_in'] as const;
export const DATE_OPS = ['before', 'after'] as const;
export type SetOp = (typeof SET_OPS)[number];
export type DateOp = (typeof DATE_OPS)[number];

export const OS_VALUES = ['ios', 'android', 'windows', 'macos', 'linux', 'chromeos'] as const;
export const DEVICE_VALUES = ['mobile', 'tablet', 'desktop'] as const;
/** Index = the local day of the week as Date#getUTCDay() counts it (Sunday 0). */
export const WEEKDAY_VALUES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

/**
 * Browser families as classifyUserAgent (src/domain/scans/classify-agent.ts) names them,
 * lower-cased. A name outside the list could never match a scan, so it is refused.
 */
export const BROWSER_VALUES = [
  '360',
  'android browser',
  'android webview',
  'baidu',
  'brave',
  'chrome',
  'chromium',
  'coc coc',
  'duckduckgo',
  'edge',
  'electron',
  'facebook',
  'firefox',
  'firefox focus',
  'google app',
  'huawei browser',
  'ie',
  'instagram',
  'kakaotalk',
  'line',
  'linkedin',
  'maxthon',
  'miui browser',
  'naver',
  'opera',
  'opera gx',
  'opera mini',
  'opera touch',
  'qqbrowser',
  'quark',
  'safari',
  'samsung internet',
  'silk',
  'snapchat',
  'tiktok',
  'uc browser',
  'vivaldi',
  'vivo browser',
  'webkit',
  'wechat',
  'whale',
  'x',
  'yandex',
] as const;

const Url = (description: string) =>
  Type.String({
    maxLength: RULE_LIMITS.urlLength,
    rule: `must be an http or https URL of at most ${RULE_LIMITS.urlLength} characters`,
    description,
  });

export const RuleCondition = named(
  'RuleCondition',
  Type.Object(
    {
      type: Type.String({ maxLength: 20, rule: `must be one of ${CONDITION_TYPES.join(', ')}`, description: CONDITION_TYPES.join(' | ') }),
      op: Type.String({
        maxLength: 10,
        rule: 'must be in or not_in (before or after for date)',
        description: 'in | not_in; before | after for date',
      }),
      values: Type.Array(Text(RULE_LIMITS.valueLength), {
        maxItems: RULE_LIMITS.values,
        rule: `must be a list of at most ${RULE_LIMITS.values} strings`,
        description:
          'os: ios, android, windows, macos, linux, chromeos; device: mobile, tablet, desktop; browser: lower-case family; country: ISO 3166-1 alpha-2; language: de, en-US; query: accepted values, [] = present; date: one ISO date-time; time: 09:00-17:00; weekday: mon…sun',
      }),
      key: Type.Optional(Text(RULE_LIMITS.valueLength, 'The query parameter (query conditions only)')),
      tz: Type.Optional(Text(64, 'IANA time zone of a time or weekday condition; UTC when absent')),
    },
    { additionalProperties: false },
  ),
);
export type RuleCondition = Static<typeof RuleCondition>;

export const SplitVariant = named(
  'SplitVariant',
  Type.Object(
    {
      destination: Url('Where this share of visitors goes'),
      weight: Type.Integer({ minimum: 0, maximum: 100, rule: 'must be an integer between 0 and 100', description: 'Percent of visitors' }),
    },
    { additionalProperties: false },
  ),
);
export type SplitVariant = Static<typeof SplitVariant>;

export const Rule = named(
  'Rule',
  Type.Object(
    {
      id: Type.Optional(
        Type.String({
          maxLength: RULE_LIMITS.idLength,
          rule: `must be at most ${RULE_LIMITS.idLength} letters, digits, _ or -`,
          description: 'Stable id (given when absent); scans record it',
        }),
      ),
      name: Type.Optional(Text(RULE_LIMITS.nameLength)),
      conditions: Type.Array(RuleCondition, {
        maxItems: RULE_LIMITS.conditions,
        rule: `must be a list of at most ${RULE_LIMITS.conditions} conditions`,
        description: 'All must hold; none means always',
      }),
      destination: Type.Optional(Url('Where a matching visitor goes (or split)')),
      split: Type.Optional(
        Type.Array(SplitVariant, {
          maxItems: RULE_LIMITS.variantsMax,
          rule: `must be a list of ${RULE_LIMITS.variantsMin} to ${RULE_LIMITS.variantsMax} variants`,
          description: 'Weights sum to 100; sticky per visitor for a UTC day',
        }),
      ),
    },
    { additionalProperties: false },
  ),
);
/** A rule as a client writes it: the id may be missing. */
export type RuleInput = Static<typeof Rule>;
/** A checked rule: normalised values, always an id. */
export interface Rule extends RuleInput {
  id: string;
}

export const Rules = named(
  'Rules',
  Type.Array(Rule, {
    maxItems: RULE_LIMITS.rules,
    rule: `must be a list of at most ${RULE_LIMITS.rules} rules`,
    description: 'First match wins; else the item’s own destination',
  }),
);

const UtmValue = Text(RULE_LIMITS.utmLength);
export const Utm = named(
  'Utm',
  Type.Object(
    {
      source: Type.Optional(UtmValue),
      medium: Type.Optional(UtmValue),
      campaign: Type.Optional(UtmValue),
      term: Type.Optional(UtmValue),
      content: Type.Optional(UtmValue),
    },
    { additionalProperties: false, description: 'Fixed utm_* parameters added to the destination' },
  ),
);
export type Utm = Static<typeof Utm>;
export const UTM_FIELDS = ['source', 'medium', 'campaign', 'term', 'content'] as const;

export const FallbackUrls = named(
  'FallbackUrls',
  Type.Object(
    {
      scheduled: Type.Optional(Url('Before activatesAt')),
      expired: Type.Optional(Url('After expiresAt')),
      capped: Type.Optional(Url('Once maxScans is reached')),
    },
    { additionalProperties: false, description: 'Where the short link sends a visitor instead of our page' },
  ),
);
export type FallbackUrls = Static<typeof FallbackUrls>;
export const FALLBACK_FIELDS = ['scheduled', 'expired', 'capped'] as const;

export const RulesTestRequest = named(
  'RulesTestRequest',
  Type.Object(
    {
      userAgent: Type.Optional(Text(512)),
      country: Type.Optional(Text(2, 'ISO 3166-1 alpha-2')),
      language: Type.Optional(Text(256, 'An Accept-Language header, e.g. de-CH,de;q=0.9')),
      at: Type.Optional(Type.String({ format: 'date-time', rule: 'must be an ISO 8601 date-time', description: 'Now when absent' })),
      query: Type.Optional(
        // An object of string values (additionalProperties, not Type.Record's patternProperties,
        // which the OpenAPI generator cannot walk).
        Type.Object(
          {},
          {
            additionalProperties: Text(RULE_LIMITS.valueLength, 'A parameter value'),
            maxProperties: RULE_LIMITS.testQueryParams,
            rule: `must be an object of at most ${RULE_LIMITS.testQueryParams} string parameters`,
          },
        ),
      ),
    },
    { additionalProperties: false, description: 'A described visit; nothing is recorded' },
  ),
);
export type RulesTestRequest = Static<typeof RulesTestRequest>;

export const RulesTestResult = named(
  'RulesTestResult',
  Type.Object(
    {
      ruleId: Type.Union([Type.String(), Type.Null()]),
      ruleName: Type.Union([Type.String(), Type.Null()]),
      variant: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
      destination: Type.String({ description: 'Where the visitor would be sent, query passthrough and utm applied' }),
    },
    { additionalProperties: false },
  ),
);
export type RulesTestResult = Static<typeof RulesTestResult>;
