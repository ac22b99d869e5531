// The studio's model of schedules and rules, without a browser: dates read in the browser's
// zone and sent as UTC, rules turned into the API's shape and back, the checks that mirror the
// API's limits, a server path placed next to its rule, and an edit that sends only what changed.
import { beforeAll, describe, expect, it } from 'vitest';
import { type Draft, draftOf, requestOf } from '../../web/pages/studio/draft-model.ts';
import { checkLifecycle, emptyLifecycle, isoOf, lifecycleFields, localInput } from '../../web/pages/studio/lifecycle-model.ts';
import {
  checkRules,
  countryList,
  fieldOfPath,
  newCondition,
  newRule,
  type RuleBody,
  ruleBodies,
  rulesOf,
  weightSum,
} from '../../web/pages/studio/rules-model.ts';
import type { QrItem } from '../../web/api.ts';

beforeAll(() => {
  process.env.TZ = 'Europe/Berlin';
});

const RULES: RuleBody[] = [
  {
    id: 'r-1',
    name: 'Germany split',
    conditions: [{ type: 'country', op: 'in', values: ['DE', 'AT'] }],
    split: [
      { destination: 'https://example.com/a', weight: 70 },
      { destination: 'https://example.com/b', weight: 30 },
    ],
  },
  {
    id: 'r-2',
    conditions: [
      { type: 'time', op: 'in', values: ['09:00-17:00'], tz: 'Europe/Berlin' },
      { type: 'query', op: 'not_in', values: [], key: 'ref' },
      { type: 'language', op: 'in', values: ['de', 'en-US'] },
      { type: 'date', op: 'before', values: ['2030-03-31T16:00:00.000Z'] },
    ],
    destination: 'https://example.com/office',
  },
];

describe('the studio’s schedule and rules model', () => {
  it('reads a date in the browser’s zone and sends it as UTC, across a change to summer time', () => {
    expect(isoOf('2030-03-01T09:00')).toBe('2030-03-01T08:00:00.000Z');
    expect(isoOf('2030-03-31T18:00')).toBe('2030-03-31T16:00:00.000Z');
    expect(localInput('2030-03-31T16:00:00Z')).toBe('2030-03-31T18:00');
    expect(isoOf('')).toBeNull();
  });

  it('turns rules into the API’s shape and back unchanged', () => {
    expect(ruleBodies(rulesOf(RULES))).toEqual(RULES);
  });

  it('refuses weights that do not add up to 100, a split of one, and a rule without values', () => {
    const rule = {
      ...newRule(),
      mode: 'split' as const,
      split: [
        { destination: 'example.com/a', weight: '60' },
        { destination: 'example.com/b', weight: '30' },
      ],
    };
    rule.conditions = [newCondition('weekday')];
    expect(weightSum(rule.split)).toBe(90);
    const errors = checkRules([rule]);
    expect(errors[`${rule.uid}-split`]).toBe('The weights must add up to 100 (now 90)');
    expect(errors[rule.conditions[0]!.uid]).toBe('Choose at least one');
    expect(checkRules([{ ...rule, split: rule.split.slice(0, 1) }])[`${rule.uid}-split`]).toBe('A split has 2 to 10 variants');
    expect(checkRules(Array.from({ length: 26 }, () => ({ ...newRule(), destination: 'example.com' }))).rules).toMatch(/At most 25 rules/);
  });

  it('checks the schedule’s order, the cap and the password’s length', () => {
    const l = { ...emptyLifecycle(), activatesAt: '2030-03-02T00:00', expiresAt: '2030-03-01T00:00', maxScans: '0' };
    expect(checkLifecycle(l, { value: 'short', remove: false })).toEqual({
      expiresAt: 'Must be after the time the code starts working',
      maxScans: 'Enter a whole number from 1 to 1,000,000,000, or leave it empty for no limit',
      password: 'Must be 8 to 128 characters (now 5)',
    });
    expect(
      lifecycleFields({ ...emptyLifecycle(), fallbackUrls: { scheduled: '', expired: 'example.com/over', capped: '' } }).fallbackUrls,
    ).toEqual({
      expired: 'https://example.com/over',
    });
  });

  it('places an error the server names by path next to its rule, condition or variant', () => {
    const rules = rulesOf(RULES);
    expect(fieldOfPath('rules[1].conditions[2].values[0]', rules)).toBe(rules[1]!.conditions[2]!.uid);
    expect(fieldOfPath('rules[0].split[1].weight', rules)).toBe(`${rules[0]!.uid}-w1`);
    expect(fieldOfPath('rules[0].name', rules)).toBe(`${rules[0]!.uid}-server`);
    expect(fieldOfPath('rules[7].destination', rules)).toBe('rules');
    expect(fieldOfPath('maxScans', rules)).toBe('maxScans');
  });

  it('lists countries by name from the API’s own codes', () => {
    const names = countryList();
    expect(names.find((c) => c.code === 'DE')?.name).toBe('Germany');
    expect(names.some((c) => c.code === 'XK')).toBe(true);
    expect(names.some((c) => c.code === 'EU' || c.code === 'XX')).toBe(false);
  });

  it('sends on an edit only the fields that changed, null for an emptied one and for a removed password', () => {
    const item = {
      id: 'i',
      title: 'Poster',
      contentType: 'url',
      payload: 'https://example.com/',
      design: {},
      activatesAt: null,
      expiresAt: '2030-03-31T16:00:00.000Z',
      maxScans: 10,
      scanCapBasis: 'human',
      fallbackUrls: {},
      forwardQuery: true,
      utm: { campaign: 'spring' },
      rules: RULES,
      hasPassword: true,
    } as unknown as QrItem;
    const stored = draftOf(item);
    const draft: Draft = {
      ...stored,
      lifecycle: { ...stored.lifecycle, maxScans: '20', utm: { ...stored.lifecycle.utm, campaign: '' } },
      password: { value: '', remove: true },
    };
    const { title, contentType, url, design, ...rest } = requestOf(draft, stored) as Record<string, unknown>;
    expect(rest).toEqual({ maxScans: 20, utm: null, password: null });
    expect(requestOf(stored, stored)).not.toHaveProperty('rules');
  });
});
