import { describe, expect, it } from 'vitest';
import { checkRules } from '../../../src/domain/dynamic/check-rules.ts';
import { compileRules } from '../../../src/domain/dynamic/compile-rules.ts';
import { testRules } from '../../../src/domain/dynamic/try-rules.ts';
import {
  MAX_ACCEPT_LANGUAGE_ENTRIES,
  parseAcceptLanguage,
  queryLookup,
  visitorContext,
  visitorFromTest,
} from '../../../src/domain/dynamic/visitor-context.ts';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('parseAcceptLanguage', () => {
  it('orders tags by q, then as sent, lower-cased', () => {
    expect(parseAcceptLanguage('de-CH,de;q=0.9,en;q=0.8,fr;q=0.7')).toEqual(['de-ch', 'de', 'en', 'fr']);
    expect(parseAcceptLanguage('en;q=0.5, fr, de;q=0.9')).toEqual(['fr', 'de', 'en']);
    expect(parseAcceptLanguage('fr;q=0.8, en;q=0.8, de')).toEqual(['de', 'fr', 'en']);
    expect(parseAcceptLanguage('EN-us')).toEqual(['en-us']);
  });

  it('leaves out *, q=0, malformed tags and malformed weights', () => {
    expect(parseAcceptLanguage('*, de;q=0.5')).toEqual(['de']);
    expect(parseAcceptLanguage('en;q=0, de')).toEqual(['de']);
    expect(parseAcceptLanguage('en;q=0.000, de;q=1.000')).toEqual(['de']);
    expect(parseAcceptLanguage('e n, de_DE, 12, de')).toEqual(['de']);
    expect(parseAcceptLanguage('en;q=2, fr;q=abc, de;q=0.1')).toEqual(['de']);
    expect(parseAcceptLanguage('en;level=1;q=0.4, fr;q=0.5')).toEqual(['fr', 'en']);
    expect(parseAcceptLanguage('de, de;q=0.5')).toEqual(['de']);
  });

  it('answers nothing for nothing', () => {
    expect(parseAcceptLanguage(undefined)).toEqual([]);
    expect(parseAcceptLanguage('')).toEqual([]);
    expect(parseAcceptLanguage(',,;')).toEqual([]);
  });

  it('reads at most 8 entries and 256 characters, cut at an entry', () => {
    const many = Array.from({ length: 20 }, (_, i) => `l${String.fromCharCode(97 + i)}`).join(',');
    expect(parseAcceptLanguage(many)).toHaveLength(MAX_ACCEPT_LANGUAGE_ENTRIES);
    const long = `de,${'x'.repeat(300)},fr`;
    expect(parseAcceptLanguage(long)).toEqual(['de']);
    const padded = `${'en;q=0.1, '.repeat(30)}fr`;
    expect(parseAcceptLanguage(padded)).toEqual(['en']);
  });

  it('answers the same frozen list for the same header', () => {
    const a = parseAcceptLanguage('nl-BE,nl;q=0.9');
    expect(parseAcceptLanguage('nl-BE,nl;q=0.9')).toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
  });
});

describe('queryLookup', () => {
  it('parses on first use, decoding like URLSearchParams', () => {
    const q = queryLookup('?a=1&b=x+y&c=%41');
    expect(q.get('a')).toBe('1');
    expect(q.get('b')).toBe('x y');
    expect(q.get('c')).toBe('A');
    expect(q.has('d')).toBe(false);
    expect(queryLookup('').get('a')).toBeNull();
  });
});

describe('visitorContext', () => {
  it('lower-cases names and checks the country', () => {
    const v = visitorContext({
      agent: { os: 'iOS', device: 'mobile', browser: 'Samsung Internet' },
      country: 'de',
      acceptLanguage: 'de-DE',
      rawQuery: 'x=1',
      nowMs: 5,
      stickyKey: 'k',
    });
    expect(v).toMatchObject({
      os: 'ios',
      device: 'mobile',
      browser: 'samsung internet',
      country: 'DE',
      languages: ['de-de'],
      nowMs: 5,
      stickyKey: 'k',
    });
    expect(v.query.get('x')).toBe('1');
    expect(visitorContext({ agent: { os: null, device: 'other', browser: null }, country: 'XX', nowMs: 0, stickyKey: '' })).toMatchObject({
      os: null,
      browser: null,
      country: null,
      languages: [],
    });
  });
});

describe('visitorFromTest and testRules', () => {
  const rules = compileRules(
    checkRules([
      { id: 'de', name: 'Germans', conditions: [{ type: 'language', op: 'in', values: ['de'] }], destination: 'https://example.com/de' },
      { id: 'ios', conditions: [{ type: 'os', op: 'in', values: ['ios'] }], destination: 'https://example.com/ios' },
      {
        id: 'night',
        conditions: [{ type: 'time', op: 'in', values: ['22:00-06:00'], tz: 'Europe/Berlin' }],
        split: [
          { destination: 'https://example.com/a', weight: 50 },
          { destination: 'https://example.com/b', weight: 50 },
        ],
      },
      { id: 'promo', conditions: [{ type: 'query', op: 'in', values: ['1'], key: 'promo' }], destination: 'https://example.com/promo' },
    ]),
  );
  const item = { destination: 'https://example.com/home', forwardQuery: true, utm: { source: 'qr' } };
  const noon = Date.parse('2026-06-10T10:00:00Z');

  it('describes the visit from the request', () => {
    const v = visitorFromTest(
      { userAgent: IPHONE, country: 'ch', language: 'de-CH,de;q=0.9', at: '2026-06-10T12:00:00+02:00', query: { a: 'b' } },
      0,
    );
    expect(v).toMatchObject({
      os: 'ios',
      device: 'mobile',
      browser: 'safari',
      country: 'CH',
      languages: ['de-ch', 'de'],
      nowMs: Date.parse('2026-06-10T10:00:00Z'),
    });
    expect(v.query.get('a')).toBe('b');
    expect(visitorFromTest({}, 42).nowMs).toBe(42);
    expect(() => visitorFromTest({ at: '2026-06-10T12:00:00' }, 0)).toThrow('at: must be an ISO 8601 date-time with an offset');
  });

  it('answers the rule, its name and the destination with passthrough applied', () => {
    expect(testRules(rules, { language: 'de', query: { ref: 'x' } }, item, noon)).toEqual({
      ruleId: 'de',
      ruleName: 'Germans',
      variant: null,
      destination: 'https://example.com/de?ref=x&utm_source=qr',
    });
    expect(testRules(rules, { userAgent: IPHONE, language: 'en' }, item, noon)).toEqual({
      ruleId: 'ios',
      ruleName: null,
      variant: null,
      destination: 'https://example.com/ios?utm_source=qr',
    });
    expect(testRules(rules, { query: { promo: '1' } }, { ...item, utm: null }, noon)).toMatchObject({
      ruleId: 'promo',
      destination: 'https://example.com/promo?promo=1',
    });
  });

  it('answers the item’s own destination when no rule matches', () => {
    expect(testRules(rules, {}, { ...item, forwardQuery: false }, noon)).toEqual({
      ruleId: null,
      ruleName: null,
      variant: null,
      destination: 'https://example.com/home?utm_source=qr',
    });
  });

  it('answers a split’s variant, the same for the same description', () => {
    const request = {
      userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0',
      at: '2026-06-10T23:30:00+02:00',
    };
    const a = testRules(rules, request, item, 0);
    expect(a.ruleId).toBe('night');
    expect([0, 1]).toContain(a.variant);
    expect(a.destination).toBe(`https://example.com/${a.variant === 0 ? 'a' : 'b'}?utm_source=qr`);
    expect(testRules(rules, request, item, 0)).toEqual(a);
  });
});
