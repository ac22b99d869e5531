import { describe, expect, it } from 'vitest';
import { createCountryLookup } from '../../../src/domain/scans/country.ts';
import { buildScan, isPrefetch, Scan, type ScanInput } from '../../../src/domain/scans/scan.ts';
import { visitorHash } from '../../../src/domain/scans/visitor-hash.ts';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const countryLookup = createCountryLookup({ trustedHeader: 'cf-ipcountry' });

function scanOf(overrides: Partial<ScanInput> = {}): ReturnType<typeof buildScan> {
  return buildScan({
    method: 'GET',
    headers: { 'user-agent': IPHONE, referer: 'https://www.instagram.com/p/xyz' },
    ip: '8.8.8.8',
    now: new Date('2026-11-22T23:30:00.000Z'),
    salt: 'salt-of-the-day',
    countryLookup,
    ...overrides,
  });
}

describe('buildScan', () => {
  it('turns a phone GET into a recorded human scan', () => {
    expect(scanOf()).toEqual({
      record: true,
      isBot: false,
      scannedAt: '2026-11-22T23:30:00.000Z',
      ms: Date.parse('2026-11-22T23:30:00.000Z'),
      day: '2026-11-22',
      device: 'mobile',
      os: 'iOS',
      browser: 'Safari',
      country: 'US',
      referrerHost: 'www.instagram.com',
      visitorHash: visitorHash('salt-of-the-day', '8.8.8.8', IPHONE),
    });
  });

  it('Scan.fromRequest normalises raw request data: the first of repeated headers, the referrer cut to its host, a time in ms', () => {
    const scan = Scan.fromRequest({
      method: 'get',
      headers: { 'user-agent': [IPHONE, 'curl/8.5.0'], referer: ['https://news.example.org/a?b=1', 'https://other.example'] },
      ip: '8.8.8.8',
      now: Date.parse('2026-11-22T23:30:00.000Z'),
      salt: 'salt-of-the-day',
      countryLookup,
    });
    expect(scan).toMatchObject({
      record: true,
      isBot: false,
      device: 'mobile',
      referrerHost: 'news.example.org',
      scannedAt: '2026-11-22T23:30:00.000Z',
      day: '2026-11-22',
    });
    expect(scan.visitorHash).toBe(visitorHash('salt-of-the-day', '8.8.8.8', IPHONE));
  });

  it('never carries the raw IP', () => {
    const scan = scanOf({ ip: '203.0.113.77', headers: { 'user-agent': IPHONE } });
    expect(JSON.stringify(scan)).not.toContain('203.0.113.77');
  });

  it('does not record HEAD or other methods', () => {
    expect(scanOf({ method: 'HEAD' }).record).toBe(false);
    expect(scanOf({ method: 'POST' }).record).toBe(false);
    expect(scanOf({ method: 'get' }).record).toBe(true);
  });

  it.each([
    [{ 'sec-purpose': 'prefetch' }],
    [{ 'sec-purpose': 'prefetch;prerender' }],
    [{ 'sec-purpose': 'Prefetch; anonymous-client-ip' }],
    [{ purpose: 'prefetch' }],
    [{ 'x-purpose': 'preview' }],
    [{ 'x-moz': 'prefetch' }],
  ])('does not record a prefetch marked %j', (marker) => {
    const scan = scanOf({ headers: { 'user-agent': IPHONE, ...marker } });
    expect(scan.record).toBe(false);
    expect(isPrefetch(marker)).toBe(true);
  });

  it('records requests whose purpose headers say something else', () => {
    expect(isPrefetch({ 'sec-purpose': 'prerender' })).toBe(false);
    expect(isPrefetch({ purpose: '' })).toBe(false);
    expect(isPrefetch({})).toBe(false);
  });

  it('records bots, flagged, so they can be kept apart', () => {
    const scan = scanOf({ headers: { 'user-agent': 'WhatsApp/2.23.20.0' } });
    expect(scan).toMatchObject({ record: true, isBot: true });
    expect(scanOf({ headers: {} })).toMatchObject({ record: true, isBot: true, device: 'other', referrerHost: null });
  });

  it('takes the country from the trusted header when it is valid', () => {
    expect(scanOf({ headers: { 'user-agent': IPHONE, 'cf-ipcountry': 'ch' } }).country).toBe('CH');
    expect(scanOf({ headers: { 'user-agent': IPHONE, 'cf-ipcountry': 'T1' } }).country).toBe('US');
    expect(scanOf({ ip: '10.0.0.8' }).country).toBeNull();
  });

  it('buckets by UTC day, and the same visitor keeps their hash within it', () => {
    const late = scanOf({ now: new Date('2026-11-23T01:30:00+02:00') });
    expect(late.day).toBe('2026-11-22');
    expect(late.visitorHash).toBe(scanOf().visitorHash);
    expect(scanOf({ salt: 'next-day-salt' }).visitorHash).not.toBe(late.visitorHash);
  });
});
