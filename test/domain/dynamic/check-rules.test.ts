import { describe, expect, it } from 'vitest';
import { checkFallbackUrls, checkRules, checkUtm } from '../../../src/domain/dynamic/check-rules.ts';
import type { RuleCondition, RuleInput } from '../../../src/domain/dynamic/rules-schema.ts';
import { ValidationError } from '../../../src/domain/errors.ts';

const to = (path: string) => ({ destination: `https://example.com/${path}` });
const rule = (conditions: RuleCondition[] = [], rest: Partial<RuleInput> = to('x')): RuleInput => ({ conditions, ...rest });
const cond = (type: string, values: string[], extra: Partial<RuleCondition> = {}): RuleCondition => ({ type, op: 'in', values, ...extra });
const one = (c: RuleCondition) => checkRules([rule([c])])[0]!.conditions[0]!;

/** The message checkRules throws for `input`. */
function errorOf(input: unknown, options = {}): string {
  try {
    checkRules(input as RuleInput[], 'rules', options);
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationError);
    return (e as Error).message;
  }
  throw new Error('expected a ValidationError');
}
const conditionError = (c: unknown) => errorOf([rule([c as RuleCondition])]);

describe('checkRules: limits', () => {
  it('takes 25 rules and refuses 26', () => {
    expect(checkRules(Array.from({ length: 25 }, () => rule()))).toHaveLength(25);
    expect(errorOf(Array.from({ length: 26 }, () => rule()))).toBe('rules: at most 25 rules (got 26)');
  });

  it('takes 10 conditions a rule and refuses 11', () => {
    const c = cond('device', ['mobile']);
    expect(checkRules([rule(Array(10).fill(c))])[0]!.conditions).toHaveLength(10);
    expect(errorOf([rule(), rule(Array(11).fill(c))])).toBe('rules[1].conditions: at most 10 conditions a rule (got 11)');
  });

  it('takes 2 to 10 split variants and refuses 1 and 11', () => {
    const split = (n: number, w = [100 - (n - 1), ...Array(n - 1).fill(1)]) =>
      rule([], { split: w.map((weight, i) => ({ destination: `https://example.com/${i}`, weight })) });
    expect(checkRules([split(2)])[0]!.split).toHaveLength(2);
    expect(checkRules([split(10)])[0]!.split).toHaveLength(10);
    expect(errorOf([rule(), split(11)])).toBe('rules[1].split: needs 2 to 10 variants');
    expect(errorOf([split(1)])).toBe('rules[0].split: needs 2 to 10 variants');
  });

  it('needs split weights that sum to exactly 100', () => {
    const split = (a: number, b: number) =>
      rule([], {
        split: [
          { ...to('a'), weight: a },
          { ...to('b'), weight: b },
        ],
      });
    expect(checkRules([split(50, 50)])[0]!.split!.map((v) => v.weight)).toEqual([50, 50]);
    expect(checkRules([split(100, 0)])[0]!.split!.map((v) => v.weight)).toEqual([100, 0]);
    expect(errorOf([rule(), rule(), split(60, 39)])).toBe('rules[2].split: weights must sum to 100 (they sum to 99)');
    expect(errorOf([split(60, 30)])).toBe('rules[0].split: weights must sum to 100 (they sum to 90)');
    expect(errorOf([split(50.5, 49.5)])).toBe('rules[0].split[0].weight: must be an integer between 0 and 100');
    expect(errorOf([split(101, -1)])).toBe('rules[0].split[0].weight: must be an integer between 0 and 100');
  });

  it('takes 50 values a condition and refuses 51', () => {
    const codes = ['US', 'DE', 'FR', 'GB', 'IT'];
    expect(
      one(
        cond(
          'query',
          Array.from({ length: 50 }, (_, i) => `v${i}`),
          { key: 'k' },
        ),
      ).values,
    ).toHaveLength(50);
    expect(conditionError(cond('country', Array(51).fill(codes[0])))).toBe('rules[0].conditions[0].values: at most 50 values (got 51)');
  });

  it('takes 2,000 values over all the rules and refuses 2,001', () => {
    // 25 rules × 10 query conditions × 8 distinct values; one more value in the last condition.
    const rules = (extra: number) =>
      Array.from({ length: 25 }, (_, r) =>
        rule(
          Array.from({ length: 10 }, (_, c) =>
            cond(
              'query',
              Array.from({ length: 8 + (r === 24 && c === 9 ? extra : 0) }, (_, v) => `${r}-${c}-${v}`),
              { key: 'k' },
            ),
          ),
        ),
      );
    expect(checkRules(rules(0)).flatMap((r) => r.conditions.flatMap((c) => c.values))).toHaveLength(2_000);
    expect(errorOf(rules(1))).toBe('rules: at most 2000 condition values in all (got 2001)');
  });

  it('takes 100,000 characters of values and keys over all the rules and refuses 100,001', () => {
    // 10 rules × 5 conditions (key "k") × 10 distinct values of 200 characters, the last one shorter:
    // 50 + 499 × 200 + last.
    const rules = (last: number) =>
      Array.from({ length: 10 }, (_, r) =>
        rule(
          Array.from({ length: 5 }, (_, c) =>
            cond(
              'query',
              Array.from({ length: 10 }, (_, v) => `${r}-${c}-${v}-`.padEnd(r === 9 && c === 4 && v === 9 ? last : 200, 'x')),
              { key: 'k' },
            ),
          ),
        ),
      );
    expect(checkRules(rules(150))).toHaveLength(10);
    expect(errorOf(rules(151))).toBe('rules: at most 100000 characters of condition values and keys in all (got 100001)');
  });

  it('takes values of 200 characters and refuses 201', () => {
    expect(one(cond('query', ['a'.repeat(200)], { key: 'k' })).values[0]).toHaveLength(200);
    expect(conditionError(cond('query', ['a'.repeat(201)], { key: 'k' }))).toBe(
      'rules[0].conditions[0].values[0]: must be a string of at most 200 characters',
    );
  });
});

describe('checkRules: rules', () => {
  it('accepts an empty list (clears the rules)', () => {
    expect(checkRules([])).toEqual([]);
  });

  it('needs exactly one of destination and split', () => {
    expect(errorOf([{ conditions: [] }])).toBe('rules[0]: needs exactly one of destination and split');
    expect(errorOf([rule([], { ...to('a'), split: [{ ...to('b'), weight: 100 }] })])).toBe(
      'rules[0]: needs exactly one of destination and split',
    );
  });

  it('gives each rule without an id one, and keeps the ids it is given', () => {
    const [a, b] = checkRules([rule(), { ...rule(), id: 'mine-1' }]);
    expect(a!.id).toMatch(/^r_[A-Za-z0-9]{8}$/);
    expect(b!.id).toBe('mine-1');
  });

  it('never gives a new rule an id that another rule has', () => {
    const ids = ['r_taken000', 'r_fresh000'];
    const out = checkRules([rule(), { ...rule(), id: 'r_taken000' }], 'rules', { newId: () => ids.shift()! });
    expect(out.map((r) => r.id)).toEqual(['r_fresh000', 'r_taken000']);
  });

  it('refuses duplicate and malformed ids', () => {
    expect(errorOf([{ ...rule(), id: 'a' }, rule(), { ...rule(), id: 'a' }])).toBe('rules[2].id: duplicates rules[0].id');
    expect(errorOf([{ ...rule(), id: 'has space' }])).toBe('rules[0].id: must be 1 to 32 letters, digits, _ or -');
    expect(errorOf([{ ...rule(), id: 'x'.repeat(33) }])).toBe('rules[0].id: must be 1 to 32 letters, digits, _ or -');
  });

  it('trims the name and drops an empty one', () => {
    const [a, b] = checkRules([
      { ...rule(), name: '  iPhones ' },
      { ...rule(), name: ' ' },
    ]);
    expect(a!.name).toBe('iPhones');
    expect(b).not.toHaveProperty('name');
    expect(errorOf([{ ...rule(), name: 'n'.repeat(101) }])).toBe('rules[0].name: must be a string of at most 100 characters');
  });

  it('refuses fields it does not know, and shapes that are not rules', () => {
    expect(errorOf([{ ...rule(), weight: 3 }])).toBe('rules[0].weight: is not a known field');
    expect(conditionError({ ...cond('os', ['ios']), negate: true })).toBe('rules[0].conditions[0].negate: is not a known field');
    expect(errorOf(['x'])).toBe('rules[0]: must be an object');
    expect(errorOf({})).toBe('rules: must be a list of rules');
    expect(errorOf([rule([], { split: {} as never })])).toBe('rules[0].split: must be a list of variants');
  });

  it('treats missing conditions as none (the rule always matches)', () => {
    expect(checkRules([to('a') as RuleInput])[0]!.conditions).toEqual([]);
  });

  it('returns fresh objects with normalised destinations', () => {
    const input = [rule([], { destination: 'Example.COM/path' })];
    const [out] = checkRules(input);
    expect(out!.destination).toBe('https://example.com/path');
    expect(out).not.toBe(input[0]);
  });
});

describe('checkRules: destinations', () => {
  it.each([
    ['javascript:alert(1)', 'only http and https URLs are allowed'],
    ['ftp://example.com/', 'only http and https URLs are allowed'],
    ['https://user:pw@example.com/', 'must not contain a user name or password'],
    ['https://bank.example@evil.example/', 'must not contain a user name or password'],
    ['https://exa mple.com/', 'must be a valid http or https URL'],
    ['https://example.com/\nx', 'must not contain control characters'],
    [`https://example.com/${'a'.repeat(2030)}`, 'must be at most 2048 characters'],
    [`https://example.com/${'é'.repeat(700)}`, 'must be at most 2048 characters once encoded'],
  ])('refuses %s', (destination, message) => {
    expect(errorOf([rule([], { destination })])).toBe(`rules[0].destination: ${message}`);
  });

  it('refuses a destination of a split variant the same way, naming the variant', () => {
    expect(
      errorOf([
        rule([], {
          split: [
            { ...to('a'), weight: 50 },
            { destination: 'data:text/html,x', weight: 50 },
          ],
        }),
      ]),
    ).toBe('rules[0].split[1].destination: only http and https URLs are allowed');
  });

  it('refuses our own short links, which would redirect to themselves', () => {
    const options = { publicBaseUrl: 'https://qr.example.org' };
    expect(errorOf([rule([], { destination: 'https://qr.example.org/r/Abc1234' })], options)).toMatch(
      /^rules\[0\]\.destination: must not point at a short link of this service/,
    );
    expect(checkRules([rule([], { destination: 'https://qr.example.org/app/' })], 'rules', options)[0]!.destination).toBe(
      'https://qr.example.org/app/',
    );
  });
});

describe('checkRules: conditions', () => {
  it('normalises values of each type', () => {
    expect(one(cond('os', ['iOS', 'Android'])).values).toEqual(['ios', 'android']);
    expect(one(cond('device', ['Mobile'])).values).toEqual(['mobile']);
    expect(one(cond('browser', ['Samsung Internet', 'safari'])).values).toEqual(['samsung internet', 'safari']);
    expect(one(cond('country', ['de', ' US '])).values).toEqual(['DE', 'US']);
    expect(one(cond('language', ['DE', 'en-us', 'zh-hant-tw'])).values).toEqual(['de', 'en-US', 'zh-Hant-TW']);
    expect(one(cond('weekday', ['MON', 'sun'])).values).toEqual(['mon', 'sun']);
    expect(one(cond('country', ['DE', 'de'])).values).toEqual(['DE']);
  });

  it('refuses a type or op it does not know', () => {
    expect(conditionError(cond('city', ['Berlin']))).toBe(
      'rules[0].conditions[0].type: must be one of os, device, browser, country, language, query, date, time, weekday',
    );
    expect(conditionError({ ...cond('os', ['ios']), op: 'before' })).toBe('rules[0].conditions[0].op: must be in or not_in');
    expect(conditionError({ ...cond('date', ['2026-01-01T00:00:00Z']), op: 'in' })).toBe(
      'rules[0].conditions[0].op: must be before or after',
    );
  });

  it.each([
    [cond('os', ['symbian']), 'values[0]: must be one of ios, android, windows, macos, linux, chromeos'],
    [cond('device', ['mobile', 'tv']), 'values[1]: must be one of mobile, tablet, desktop'],
    [cond('browser', ['netscape']), 'values[0]: not a known browser family'],
    [cond('language', ['german']), 'values[0]: not a language tag such as de or en-US'],
    [cond('language', ['e']), 'values[0]: not a language tag such as de or en-US'],
    [cond('weekday', ['monday']), 'values[0]: must be one of sun, mon, tue, wed, thu, fri, sat'],
    [cond('os', []), 'values: must list at least one value'],
    [cond('os', 'ios' as never), 'values: must be a list of strings'],
  ])('refuses %j', (c, message) => {
    expect(conditionError(c)).toBe(`rules[0].conditions[0].${message}`);
  });

  it('names the exact path of a bad country code', () => {
    const bad = [rule(), rule(), rule(), rule([cond('os', ['ios']), cond('country', ['XX'])])];
    expect(errorOf(bad)).toBe('rules[3].conditions[1].values[0]: not an ISO 3166-1 country code');
    expect(conditionError(cond('country', ['DE', 'EU']))).toBe('rules[0].conditions[0].values[1]: not an ISO 3166-1 country code');
  });

  it('needs a key for a query condition, and accepts [] as "present"', () => {
    expect(one(cond('query', [], { key: 'ref' }))).toEqual({ type: 'query', op: 'in', values: [], key: 'ref' });
    expect(one(cond('query', ['a', 'a', 'b'], { key: 'ref' })).values).toEqual(['a', 'b']);
    expect(conditionError(cond('query', ['x']))).toBe('rules[0].conditions[0].key: query conditions need the parameter name');
    expect(conditionError(cond('query', ['x'], { key: '' }))).toBe('rules[0].conditions[0].key: query conditions need the parameter name');
    expect(conditionError(cond('os', ['ios'], { key: 'k' }))).toBe('rules[0].conditions[0].key: only query conditions take a key');
  });

  it('takes exactly one ISO date-time with an offset for a date, normalised to UTC', () => {
    const c = one({ type: 'date', op: 'before', values: ['2026-03-01T09:00:00+01:00'] });
    expect(c).toEqual({ type: 'date', op: 'before', values: ['2026-03-01T08:00:00.000Z'] });
    expect(conditionError({ type: 'date', op: 'after', values: [] })).toBe(
      'rules[0].conditions[0].values: must hold exactly one ISO 8601 date-time',
    );
    expect(conditionError({ type: 'date', op: 'after', values: ['2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z'] })).toBe(
      'rules[0].conditions[0].values: must hold exactly one ISO 8601 date-time',
    );
    for (const bad of ['2026-03-01', '2026-03-01T09:00:00', '2026-02-30T00:00:00Z', '2026-13-01T00:00:00Z', 'tomorrow']) {
      expect(conditionError({ type: 'date', op: 'after', values: [bad] }), bad).toBe(
        'rules[0].conditions[0].values[0]: must be an ISO 8601 date-time with an offset, e.g. 2026-03-01T09:00:00Z',
      );
    }
    expect(conditionError({ type: 'date', op: 'after', values: ['2026-01-01T00:00:00Z'], tz: 'UTC' })).toBe(
      'rules[0].conditions[0].tz: only time and weekday conditions take a time zone',
    );
  });

  it('takes time windows like 09:00-17:00, wrapping midnight, in a zone (UTC by default)', () => {
    expect(one(cond('time', ['09:00-17:00', '22:00-06:00', '18:00-24:00']))).toEqual({
      type: 'time',
      op: 'in',
      values: ['09:00-17:00', '22:00-06:00', '18:00-24:00'],
      tz: 'UTC',
    });
    expect(one(cond('time', ['09:00-17:00'], { tz: 'europe/berlin' })).tz).toBe('Europe/Berlin');
    for (const bad of ['9:00-17:00', '09:00', '09:00-25:00', '24:00-01:00', '09:60-10:00', '10:00-24:30', '0900-1700']) {
      expect(conditionError(cond('time', [bad])), bad).toBe('rules[0].conditions[0].values[0]: must look like 09:00-17:00');
    }
    expect(conditionError(cond('time', ['09:00-09:00']))).toBe('rules[0].conditions[0].values[0]: start and end must differ');
  });

  it('refuses a time zone that is not IANA', () => {
    expect(conditionError(cond('time', ['09:00-17:00'], { tz: 'Mars/Olympus' }))).toBe('rules[0].conditions[0].tz: not an IANA time zone');
    expect(conditionError(cond('weekday', ['mon'], { tz: 'CEST+1' }))).toBe('rules[0].conditions[0].tz: not an IANA time zone');
    expect(conditionError(cond('os', ['ios'], { tz: 'UTC' }))).toBe(
      'rules[0].conditions[0].tz: only time and weekday conditions take a time zone',
    );
  });

  it('refuses control characters in values', () => {
    expect(conditionError(cond('query', ['a\u0000'], { key: 'k' }))).toBe(
      'rules[0].conditions[0].values[0]: must not contain control characters',
    );
  });

  it('uses the path it is given', () => {
    expect(() => checkRules([rule([cond('country', ['XX'])])], 'items[4].rules')).toThrow(
      'items[4].rules[0].conditions[0].values[0]: not an ISO 3166-1 country code',
    );
  });
});

describe('checkUtm', () => {
  it('trims values, drops empty ones, and answers null for nothing', () => {
    expect(checkUtm({ source: ' poster ', medium: '', campaign: 'spring' })).toEqual({ source: 'poster', campaign: 'spring' });
    expect(checkUtm({ source: ' ' })).toBeNull();
    expect(checkUtm(null)).toBeNull();
  });

  it('names the field of a bad value', () => {
    expect(() => checkUtm({ source: 's'.repeat(201) })).toThrow('utm.source: must be a string of at most 200 characters');
    expect(checkUtm({ content: 'c'.repeat(200) })!.content).toHaveLength(200);
    expect(() => checkUtm({ id: 'x' })).toThrow('utm.id: is not a known field');
    expect(() => checkUtm('x')).toThrow('utm: must be an object');
  });
});

describe('checkFallbackUrls', () => {
  it('normalises each URL and drops absent ones', () => {
    expect(checkFallbackUrls({ expired: 'example.com/over', scheduled: null })).toEqual({ expired: 'https://example.com/over' });
    expect(checkFallbackUrls({})).toBeNull();
  });

  it('names the field of a bad URL', () => {
    expect(() => checkFallbackUrls({ expired: 'mailto:a@example.com' })).toThrow(
      'fallbackUrls.expired: only http and https URLs are allowed',
    );
    expect(() => checkFallbackUrls({ capped: 3 })).toThrow('fallbackUrls.capped: must be an http or https URL');
    expect(() =>
      checkFallbackUrls({ capped: 'https://qr.example.org/r/Abc1234' }, 'fallbackUrls', { publicBaseUrl: 'https://qr.example.org' }),
    ).toThrow(/^fallbackUrls\.capped: must not point at a short link/);
    expect(() => checkFallbackUrls({ later: 'https://example.com' })).toThrow('fallbackUrls.later: is not a known field');
  });
});
