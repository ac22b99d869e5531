import { describe, expect, it } from 'vitest';
import { checkRules } from '../../../src/domain/dynamic/check-rules.ts';
import { compileRules, NO_MATCH, splitBucket, type VisitorContext } from '../../../src/domain/dynamic/compile-rules.ts';
import { localMinuteOfDay, localWeekday, zoneOffsetMs } from '../../../src/domain/dynamic/local-clock.ts';
import type { RuleCondition, RuleInput } from '../../../src/domain/dynamic/rules-schema.ts';
import { visitorContext } from '../../../src/domain/dynamic/visitor-context.ts';
import { classifyUserAgent } from '../../../src/domain/scans/classify-agent.ts';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const PIXEL = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.6422.165 Mobile Safari/537.36';
const WINDOWS_FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0';

const at = (iso: string) => Date.parse(iso);

function visitor(over: Partial<VisitorContext> & { ua?: string; acceptLanguage?: string; rawQuery?: string } = {}): VisitorContext {
  const { ua = IPHONE, acceptLanguage = 'en-US,en;q=0.9', rawQuery = '', ...rest } = over;
  const base = visitorContext({
    agent: classifyUserAgent(ua),
    country: 'US',
    acceptLanguage,
    rawQuery,
    nowMs: at('2026-06-10T12:00:00Z'),
    stickyKey: 'visitor-1',
  });
  return { ...base, ...rest };
}

const cond = (type: string, values: string[], extra: Partial<RuleCondition> = {}): RuleCondition => ({ type, op: 'in', values, ...extra });
const not = (c: RuleCondition): RuleCondition => ({ ...c, op: 'not_in' });
const to = (name: string, ...conditions: RuleCondition[]): RuleInput => ({
  id: name,
  conditions,
  destination: `https://example.com/${name}`,
});
const compile = (...rules: RuleInput[]) => compileRules(checkRules(rules));
const destinationOf = (rules: ReturnType<typeof compile>, v: VisitorContext) => rules.match(v).destination;

describe('compileRules: evaluation', () => {
  it('answers the first rule whose conditions all hold, else null (the item’s own destination)', () => {
    const rules = compile(
      to('ios-de', cond('os', ['ios']), cond('country', ['DE'])),
      to('ios', cond('os', ['ios'])),
      to('android', cond('os', ['android'])),
    );
    expect(destinationOf(rules, visitor({ country: 'DE' }))).toBe('https://example.com/ios-de');
    expect(destinationOf(rules, visitor({ country: 'FR' }))).toBe('https://example.com/ios');
    expect(destinationOf(rules, visitor({ ua: PIXEL }))).toBe('https://example.com/android');
    expect(rules.match(visitor({ ua: WINDOWS_FIREFOX }))).toBe(NO_MATCH);
    expect(rules.match(visitor({ ua: WINDOWS_FIREFOX }))).toEqual({ rule: null, variant: null, destination: null });
  });

  it('lets a rule without conditions match everyone, hiding the rules after it', () => {
    const rules = compile(to('all'), to('ios', cond('os', ['ios'])));
    expect(destinationOf(rules, visitor())).toBe('https://example.com/all');
    expect(rules.match(visitor()).rule!.id).toBe('all');
  });

  it('answers with the same object for the same rule (nothing allocated per scan)', () => {
    const rules = compile(to('ios', cond('os', ['ios'])));
    expect(rules.match(visitor())).toBe(rules.match(visitor({ country: 'DE' })));
  });

  it('matches nothing with no rules', () => {
    expect(compile().match(visitor())).toBe(NO_MATCH);
  });

  it('says which parts of a visit the rules read', () => {
    expect(compile(to('a', cond('time', ['09:00-17:00']))).uses).toEqual({ agent: false, country: false, language: false, query: false });
    expect(compile(to('a', cond('device', ['mobile'])), to('b', cond('query', [], { key: 'k' }))).uses).toEqual({
      agent: true,
      country: false,
      language: false,
      query: true,
    });
    expect(compile(to('a', cond('country', ['DE'])), to('b', cond('language', ['de']))).uses).toMatchObject({
      country: true,
      language: true,
    });
  });
});

describe('compileRules: conditions', () => {
  it('matches os, device and browser as classifyUserAgent names them', () => {
    expect(destinationOf(compile(to('m', cond('device', ['mobile']))), visitor())).toBe('https://example.com/m');
    expect(destinationOf(compile(to('m', cond('device', ['desktop']))), visitor())).toBeNull();
    expect(destinationOf(compile(to('s', cond('browser', ['safari']))), visitor())).toBe('https://example.com/s');
    expect(destinationOf(compile(to('f', cond('browser', ['firefox']), cond('os', ['windows']))), visitor({ ua: WINDOWS_FIREFOX }))).toBe(
      'https://example.com/f',
    );
    const samsung =
      'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36';
    expect(destinationOf(compile(to('si', cond('browser', ['samsung internet']))), visitor({ ua: samsung }))).toBe(
      'https://example.com/si',
    );
  });

  it('not_in holds for values outside the list and for unknown ones', () => {
    const rules = compile(to('not-ios', not(cond('os', ['ios']))));
    expect(destinationOf(rules, visitor())).toBeNull();
    expect(destinationOf(rules, visitor({ ua: PIXEL }))).toBe('https://example.com/not-ios');
    expect(destinationOf(rules, visitor({ os: null }))).toBe('https://example.com/not-ios');
    const countries = compile(to('not-eu', not(cond('country', ['DE', 'FR']))));
    expect(destinationOf(countries, visitor({ country: 'DE' }))).toBeNull();
    expect(destinationOf(countries, visitor({ country: null }))).toBe('https://example.com/not-eu');
  });

  it('never lets an unknown value be "in" a list', () => {
    expect(destinationOf(compile(to('c', cond('country', ['US']))), visitor({ country: null }))).toBeNull();
    expect(destinationOf(compile(to('b', cond('browser', ['chrome']))), visitor({ browser: null }))).toBeNull();
  });

  it('matches a language by its primary tag or exactly, on the first preference only', () => {
    const rules = compile(to('de', cond('language', ['de'])), to('en-us', cond('language', ['en-US'])));
    expect(destinationOf(rules, visitor({ acceptLanguage: 'de-AT,de;q=0.9' }))).toBe('https://example.com/de');
    expect(destinationOf(rules, visitor({ acceptLanguage: 'de' }))).toBe('https://example.com/de');
    expect(destinationOf(rules, visitor({ acceptLanguage: 'en-US' }))).toBe('https://example.com/en-us');
    expect(destinationOf(rules, visitor({ acceptLanguage: 'en-GB,en;q=0.9' }))).toBeNull();
    expect(destinationOf(rules, visitor({ acceptLanguage: 'fr,en-US;q=0.8,de;q=0.7' }))).toBeNull();
    expect(destinationOf(rules, visitor({ acceptLanguage: 'fr;q=0.5,de-CH' }))).toBe('https://example.com/de');
    expect(destinationOf(rules, visitor({ acceptLanguage: 'dee' }))).toBeNull();
    expect(destinationOf(rules, visitor({ acceptLanguage: '' }))).toBeNull();
    expect(destinationOf(compile(to('x', not(cond('language', ['de'])))), visitor({ acceptLanguage: '' }))).toBe('https://example.com/x');
  });

  it('matches a query parameter present, absent, equal or not', () => {
    const present = compile(to('has-ref', cond('query', [], { key: 'ref' })));
    expect(destinationOf(present, visitor({ rawQuery: 'ref=' }))).toBe('https://example.com/has-ref');
    expect(destinationOf(present, visitor({ rawQuery: '?a=1&ref' }))).toBe('https://example.com/has-ref');
    expect(destinationOf(present, visitor({ rawQuery: 'reference=1' }))).toBeNull();
    expect(destinationOf(present, visitor({ rawQuery: '' }))).toBeNull();
    const absent = compile(to('no-ref', not(cond('query', [], { key: 'ref' }))));
    expect(destinationOf(absent, visitor({ rawQuery: 'x=1' }))).toBe('https://example.com/no-ref');
    expect(destinationOf(absent, visitor({ rawQuery: 'ref=1' }))).toBeNull();
    const equal = compile(to('flyer', cond('query', ['flyer', 'poster'], { key: 'src' })));
    expect(destinationOf(equal, visitor({ rawQuery: 'src=poster' }))).toBe('https://example.com/flyer');
    expect(destinationOf(equal, visitor({ rawQuery: 'src=Poster' }))).toBeNull();
    expect(destinationOf(equal, visitor({ rawQuery: 'src=fl%79er' }))).toBe('https://example.com/flyer');
    const notEqual = compile(to('other', not(cond('query', ['flyer'], { key: 'src' }))));
    expect(destinationOf(notEqual, visitor({ rawQuery: 'src=flyer' }))).toBeNull();
    expect(destinationOf(notEqual, visitor({ rawQuery: 'src=web' }))).toBe('https://example.com/other');
    expect(destinationOf(notEqual, visitor({ rawQuery: '' }))).toBe('https://example.com/other');
  });

  it('compares the date before or after an instant (after includes it)', () => {
    const before = compile({
      id: 'b',
      conditions: [{ type: 'date', op: 'before', values: ['2026-07-01T00:00:00+02:00'] }],
      destination: 'https://example.com/b',
    });
    const after = compile({
      id: 'a',
      conditions: [{ type: 'date', op: 'after', values: ['2026-07-01T00:00:00+02:00'] }],
      destination: 'https://example.com/a',
    });
    const edge = at('2026-06-30T22:00:00Z');
    expect(destinationOf(before, visitor({ nowMs: edge - 1 }))).toBe('https://example.com/b');
    expect(destinationOf(before, visitor({ nowMs: edge }))).toBeNull();
    expect(destinationOf(after, visitor({ nowMs: edge - 1 }))).toBeNull();
    expect(destinationOf(after, visitor({ nowMs: edge }))).toBe('https://example.com/a');
  });
});

describe('compileRules: time windows', () => {
  const window = (values: string[], tz?: string) => compile(to('w', cond('time', values, tz === undefined ? {} : { tz })));
  const inWindow = (rules: ReturnType<typeof window>, iso: string) => destinationOf(rules, visitor({ nowMs: at(iso) })) !== null;

  it('includes the start and excludes the end, in UTC by default', () => {
    const rules = window(['09:00-17:00']);
    expect(inWindow(rules, '2026-06-10T08:59:59Z')).toBe(false);
    expect(inWindow(rules, '2026-06-10T09:00:00Z')).toBe(true);
    expect(inWindow(rules, '2026-06-10T16:59:59Z')).toBe(true);
    expect(inWindow(rules, '2026-06-10T17:00:00Z')).toBe(false);
  });

  it('wraps midnight when the start is after the end', () => {
    const rules = window(['22:00-06:00']);
    expect(inWindow(rules, '2026-06-10T21:59:00Z')).toBe(false);
    expect(inWindow(rules, '2026-06-10T22:00:00Z')).toBe(true);
    expect(inWindow(rules, '2026-06-10T23:59:59Z')).toBe(true);
    expect(inWindow(rules, '2026-06-11T00:00:00Z')).toBe(true);
    expect(inWindow(rules, '2026-06-11T05:59:00Z')).toBe(true);
    expect(inWindow(rules, '2026-06-11T06:00:00Z')).toBe(false);
  });

  it('takes 24:00 as the end of the day, and several windows as either', () => {
    const rules = window(['07:00-08:00', '18:00-24:00']);
    expect(inWindow(rules, '2026-06-10T07:30:00Z')).toBe(true);
    expect(inWindow(rules, '2026-06-10T12:00:00Z')).toBe(false);
    expect(inWindow(rules, '2026-06-10T23:59:59Z')).toBe(true);
    expect(inWindow(rules, '2026-06-11T00:00:00Z')).toBe(false);
  });

  it('not_in a window holds outside it', () => {
    const rules = compile(to('closed', not(cond('time', ['09:00-17:00'], { tz: 'Europe/Berlin' }))));
    expect(destinationOf(rules, visitor({ nowMs: at('2026-06-10T10:00:00Z') }))).toBeNull();
    expect(destinationOf(rules, visitor({ nowMs: at('2026-06-10T20:00:00Z') }))).toBe('https://example.com/closed');
  });

  it('follows Berlin’s wall clock across the spring change (2026-03-29, CET → CEST)', () => {
    const office = window(['09:00-17:00'], 'Europe/Berlin');
    // Saturday before: UTC+1.
    expect(inWindow(office, '2026-03-28T07:59:00Z')).toBe(false);
    expect(inWindow(office, '2026-03-28T08:00:00Z')).toBe(true);
    expect(inWindow(office, '2026-03-28T15:59:00Z')).toBe(true);
    expect(inWindow(office, '2026-03-28T16:00:00Z')).toBe(false);
    // Monday after: UTC+2, the same local window one hour earlier in UTC.
    expect(inWindow(office, '2026-03-30T06:59:00Z')).toBe(false);
    expect(inWindow(office, '2026-03-30T07:00:00Z')).toBe(true);
    expect(inWindow(office, '2026-03-30T14:59:00Z')).toBe(true);
    expect(inWindow(office, '2026-03-30T15:00:00Z')).toBe(false);
    // 02:00-03:00 does not exist that night: the clock jumps from 01:59:59 to 03:00.
    const skipped = window(['02:00-03:00'], 'Europe/Berlin');
    expect(inWindow(skipped, '2026-03-29T00:59:59Z')).toBe(false);
    expect(inWindow(skipped, '2026-03-29T01:00:00Z')).toBe(false);
    // The minute the clock changes, and the minute before.
    const night = window(['01:00-03:30'], 'Europe/Berlin');
    expect(inWindow(night, '2026-03-29T00:59:00Z')).toBe(true); // 01:59 CET
    expect(inWindow(night, '2026-03-29T01:29:00Z')).toBe(true); // 03:29 CEST
    expect(inWindow(night, '2026-03-29T01:30:00Z')).toBe(false); // 03:30 CEST
  });

  it('follows Berlin’s wall clock across the autumn change (2026-10-25, CEST → CET), where 02:00-03:00 happens twice', () => {
    const twice = window(['02:00-03:00'], 'Europe/Berlin');
    expect(inWindow(twice, '2026-10-24T23:59:00Z')).toBe(false); // 01:59 CEST
    expect(inWindow(twice, '2026-10-25T00:00:00Z')).toBe(true); // 02:00 CEST
    expect(inWindow(twice, '2026-10-25T00:59:00Z')).toBe(true); // 02:59 CEST
    expect(inWindow(twice, '2026-10-25T01:00:00Z')).toBe(true); // 02:00 CET, again
    expect(inWindow(twice, '2026-10-25T01:59:00Z')).toBe(true); // 02:59 CET
    expect(inWindow(twice, '2026-10-25T02:00:00Z')).toBe(false); // 03:00 CET
    const office = window(['09:00-17:00'], 'Europe/Berlin');
    expect(inWindow(office, '2026-10-24T07:00:00Z')).toBe(true); // 09:00 CEST
    expect(inWindow(office, '2026-10-26T07:00:00Z')).toBe(false); // 08:00 CET
    expect(inWindow(office, '2026-10-26T08:00:00Z')).toBe(true); // 09:00 CET
  });

  it('follows New York’s wall clock across its changes (2026-03-08 and 2026-11-01)', () => {
    const office = window(['09:00-17:00'], 'America/New_York');
    expect(inWindow(office, '2026-03-07T14:00:00Z')).toBe(true); // 09:00 EST
    expect(inWindow(office, '2026-03-07T21:30:00Z')).toBe(true); // 16:30 EST
    expect(inWindow(office, '2026-03-09T13:00:00Z')).toBe(true); // 09:00 EDT
    expect(inWindow(office, '2026-03-09T12:59:00Z')).toBe(false); // 08:59 EDT
    expect(inWindow(office, '2026-03-09T21:30:00Z')).toBe(false); // 17:30 EDT
    expect(inWindow(office, '2026-11-02T13:30:00Z')).toBe(false); // 08:30 EST
    expect(inWindow(office, '2026-11-02T14:00:00Z')).toBe(true); // 09:00 EST
    const night = window(['22:00-06:00'], 'America/New_York');
    expect(inWindow(night, '2026-03-08T06:59:00Z')).toBe(true); // 01:59 EST
    expect(inWindow(night, '2026-03-08T07:00:00Z')).toBe(true); // 03:00 EDT
    expect(inWindow(night, '2026-03-08T10:00:00Z')).toBe(false); // 06:00 EDT
  });

  it('reads the zone’s offset again when the clock goes back (rules/test asks for any instant)', () => {
    const berlin = 'Europe/Berlin';
    expect(zoneOffsetMs(berlin, at('2026-07-01T12:00:00Z'))).toBe(7_200_000);
    expect(zoneOffsetMs(berlin, at('2026-01-01T12:00:00Z'))).toBe(3_600_000);
    expect(zoneOffsetMs(berlin, at('2026-07-01T12:00:00Z'))).toBe(7_200_000);
    expect(zoneOffsetMs('Asia/Kathmandu', at('2026-07-01T12:00:00Z'))).toBe(20_700_000);
    expect(localMinuteOfDay('Asia/Kathmandu', at('2026-07-01T12:00:00Z'))).toBe(17 * 60 + 45);
    expect(localMinuteOfDay('America/New_York', at('2026-01-01T03:00:00Z'))).toBe(22 * 60);
  });
});

describe('compileRules: weekdays', () => {
  it('takes the day of the week in the rule’s zone', () => {
    // Saturday 2026-03-28 12:00 UTC is already Sunday 01:00 in Auckland (UTC+13).
    const now = at('2026-03-28T12:00:00Z');
    expect(localWeekday('UTC', now)).toBe(6);
    expect(localWeekday('Pacific/Auckland', now)).toBe(0);
    const sunday = (tz?: string) => compile(to('sun', cond('weekday', ['sun'], tz === undefined ? {} : { tz })));
    expect(destinationOf(sunday(), visitor({ nowMs: now }))).toBeNull();
    expect(destinationOf(sunday('Pacific/Auckland'), visitor({ nowMs: now }))).toBe('https://example.com/sun');
    // Still Saturday 2026-03-28 18:00 in Los Angeles on Sunday 01:00 UTC.
    const weekend = compile(to('weekend', cond('weekday', ['sat', 'sun'], { tz: 'America/Los_Angeles' })));
    expect(destinationOf(weekend, visitor({ nowMs: at('2026-03-30T06:59:00Z') }))).toBe('https://example.com/weekend'); // Sun 23:59 PDT
    expect(destinationOf(weekend, visitor({ nowMs: at('2026-03-30T07:00:00Z') }))).toBeNull(); // Mon 00:00 PDT
  });

  it('not_in weekdays holds on the other days', () => {
    const workdays = compile(to('work', not(cond('weekday', ['sat', 'sun'], { tz: 'Europe/Berlin' }))));
    expect(destinationOf(workdays, visitor({ nowMs: at('2026-03-29T12:00:00Z') }))).toBeNull(); // Sunday
    expect(destinationOf(workdays, visitor({ nowMs: at('2026-03-30T12:00:00Z') }))).toBe('https://example.com/work'); // Monday
  });
});

describe('compileRules: splits', () => {
  const split = (weights: number[]) =>
    compile({ id: 'r_split', conditions: [], split: weights.map((weight, i) => ({ destination: `https://example.com/v${i}`, weight })) });

  it('spreads 10,000 visitors roughly by the weights', () => {
    const rules = split([70, 20, 10]);
    const counts = [0, 0, 0];
    for (let i = 0; i < 10_000; i++) counts[rules.match(visitor({ stickyKey: `visitor-${i}` })).variant!]!++;
    expect(counts[0]! / 10_000).toBeCloseTo(0.7, 1);
    expect(Math.abs(counts[0]! - 7000)).toBeLessThan(250);
    expect(Math.abs(counts[1]! - 2000)).toBeLessThan(200);
    expect(Math.abs(counts[2]! - 1000)).toBeLessThan(150);
  });

  it('spreads ten equal variants evenly, and never picks a variant of weight 0', () => {
    const even = split(Array(10).fill(10));
    const counts = Array(10).fill(0);
    for (let i = 0; i < 10_000; i++) counts[even.match(visitor({ stickyKey: `k${i}` })).variant!]++;
    for (const c of counts) expect(Math.abs(c - 1000)).toBeLessThan(150);
    const zero = split([0, 100]);
    for (let i = 0; i < 1000; i++) expect(zero.match(visitor({ stickyKey: `k${i}` })).variant).toBe(1);
  });

  it('keeps a visitor on one variant all UTC day, and draws again the next day', () => {
    const rules = split([50, 50]);
    const dayStart = at('2026-06-10T00:00:00Z');
    let moved = 0;
    for (let i = 0; i < 1000; i++) {
      const stickyKey = `visitor-${i}`;
      const first = rules.match(visitor({ stickyKey, nowMs: dayStart }));
      for (const hour of [1, 9, 17, 23.99]) expect(rules.match(visitor({ stickyKey, nowMs: dayStart + hour * 3_600_000 }))).toBe(first);
      if (rules.match(visitor({ stickyKey, nowMs: dayStart + 86_400_000 })) !== first) moved++;
    }
    expect(moved).toBeGreaterThan(350);
    expect(moved).toBeLessThan(650);
  });

  it('answers the variant index and its destination', () => {
    const m = split([50, 50]).match(visitor());
    expect(m.rule!.id).toBe('r_split');
    expect(m.destination).toBe(`https://example.com/v${m.variant}`);
  });

  it('draws separately for each rule', () => {
    let differ = 0;
    for (let i = 0; i < 1000; i++) if (splitBucket(`k${i}`, 'r_a', 20_000) !== splitBucket(`k${i}`, 'r_b', 20_000)) differ++;
    expect(differ).toBeGreaterThan(900);
  });
});

describe('compileRules: stored rules it cannot read', () => {
  it('never matches a time condition in a zone unknown to this Node, instead of throwing on every scan', () => {
    const stored = [
      {
        id: 'x',
        conditions: [{ type: 'time', op: 'in', values: ['00:00-24:00'], tz: 'Mars/Olympus' }],
        destination: 'https://example.com/x',
      },
    ];
    expect(compileRules(stored).match(visitor())).toBe(NO_MATCH);
  });
});
