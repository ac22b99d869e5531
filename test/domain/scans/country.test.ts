import { describe, expect, it } from 'vitest';
import { createCountryLookup } from '../../../src/domain/scans/country.ts';
import { countryCode } from '../../../src/domain/scans/country-codes.ts';
import { isIP } from 'node:net';
import fc from 'fast-check';
import { isPublicIp, normalizeIp, parseIpv4 } from '../../../src/domain/scans/ip-address.ts';

const bundled = createCountryLookup();
const viaCloudflare = createCountryLookup({ trustedHeader: 'CF-IPCountry' });
const headerOnly = createCountryLookup({ trustedHeader: 'cf-ipcountry', database: 'none' });

describe('country from the bundled IP database', () => {
  // Anycast resolvers whose registration has not moved in years.
  it.each([
    ['8.8.8.8', 'US'],
    ['1.1.1.1', 'AU'],
    ['2001:4860:4860::8888', 'US'],
    ['::ffff:8.8.8.8', 'US'],
    ['::FFFF:808:808', 'US'],
  ])('locates %s in %s', (ip, country) => {
    expect(bundled.fromRequest({ headers: {}, ip })).toBe(country);
  });

  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '192.168.0.1',
    '172.16.5.4',
    '100.64.0.1',
    '169.254.1.1',
    '::1',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '0.0.0.0',
  ])('answers null for the non-public address %s', (ip) => expect(bundled.fromRequest({ headers: {}, ip })).toBeNull());

  it.each(['', 'garbage', '999.1.1.1', '1.2.3', 'unknown'])('answers null for the malformed address %j', (ip) => {
    expect(bundled.fromRequest({ headers: {}, ip })).toBeNull();
  });

  it('is not consulted when the database is turned off', () => {
    expect(headerOnly.fromRequest({ headers: {}, ip: '8.8.8.8' })).toBeNull();
  });
});

describe('country from a trusted proxy header', () => {
  it('prefers the configured header over the database, upper-cased', () => {
    expect(viaCloudflare.fromRequest({ headers: { 'cf-ipcountry': 'de' }, ip: '8.8.8.8' })).toBe('DE');
    expect(headerOnly.fromRequest({ headers: { 'cf-ipcountry': ['FR', 'DE'] }, ip: '10.0.0.1' })).toBe('FR');
  });

  it.each(['XX', 'T1', 'EU', 'ZZ', 'A1', 'usa', 'U', '', ' ', '<script>', 'US,DE'])(
    'ignores the bogus value %j and falls back to the IP',
    (value) => {
      expect(viaCloudflare.fromRequest({ headers: { 'cf-ipcountry': value }, ip: '8.8.8.8' })).toBe('US');
      expect(headerOnly.fromRequest({ headers: { 'cf-ipcountry': value }, ip: '8.8.8.8' })).toBeNull();
    },
  );

  it('ignores the header when none is configured, so clients cannot spoof it', () => {
    expect(bundled.fromRequest({ headers: { 'cf-ipcountry': 'DE' }, ip: '8.8.8.8' })).toBe('US');
  });

  it('takes a per-call header name over the configured one', () => {
    const headers = { 'x-country': 'JP', 'cf-ipcountry': 'DE' };
    expect(viaCloudflare.fromRequest({ headers, ip: '8.8.8.8', trustedHeader: 'X-Country' })).toBe('JP');
  });
});

describe('country codes and addresses', () => {
  it('accepts assigned ISO 3166-1 alpha-2 codes and Kosovo', () => {
    expect(['us', 'DE', ' gb ', 'XK', 'AX'].map(countryCode)).toEqual(['US', 'DE', 'GB', 'XK', 'AX']);
    expect([null, undefined, 'UK', 'XX', 'T1', 'AP'].map(countryCode)).toEqual([null, null, null, null, null, null]);
  });

  it('unwraps IPv4-mapped IPv6 addresses and drops zone ids', () => {
    expect(normalizeIp('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(normalizeIp('::ffff:c000:201')).toBe('192.0.2.1');
    expect(normalizeIp('FE80::1%eth0')).toBe('fe80::1');
    expect(normalizeIp('2001:DB8::1')).toBe('2001:db8::1');
    expect(normalizeIp('nope')).toBeNull();
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '198.20.0.1', '223.255.255.255', '2001:4860:4860::8888', '2a00:1450::1'])(
    'counts %s as public',
    (ip) => expect(isPublicIp(ip)).toBe(true),
  );

  it.each([
    '192.0.2.1',
    '172.31.255.255',
    '100.127.0.1',
    '198.19.0.1',
    '224.0.0.1',
    '255.255.255.255',
    'fc12::1',
    'fd00::1',
    'fe80::1',
    'ff02::1',
    '::',
    '::1',
    '0:0:0:0:0:0:0:1',
    '2001:db8::1',
    '64:ff9b::808:808',
    'not-an-ip',
  ])('counts %s as non-public', (ip) => expect(isPublicIp(ip)).toBe(false));

  it('reads a dotted IPv4 address exactly when net.isIP does, to the same number', () => {
    const octet = fc.oneof(fc.integer({ min: 0, max: 300 }).map(String), fc.constantFrom('', '00', '01', '007', '1a', ' 1', '-1', '2555'));
    const dotted = fc
      .array(octet, { minLength: 1, maxLength: 6 })
      .chain((parts) => fc.constantFrom('.', ':', '..').map((sep) => parts.join(sep)));
    fc.assert(
      fc.property(fc.oneof(dotted, fc.string({ maxLength: 16 })), (s) => {
        const n = parseIpv4(s);
        expect(n >= 0).toBe(isIP(s) === 4);
        if (n >= 0) expect(n).toBe(s.split('.').reduce((acc, o) => acc * 256 + Number(o), 0));
      }),
      { numRuns: 5000 },
    );
    expect(parseIpv4('255.255.255.255')).toBe(2 ** 32 - 1);
    expect(parseIpv4('01.2.3.4')).toBe(-1);
    expect(normalizeIp('01.2.3.4')).toBeNull();
    expect(normalizeIp('203.0.113.9')).toBe('203.0.113.9');
  });
});
