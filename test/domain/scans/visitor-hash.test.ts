import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newSalt, utcDay, visitorHash } from '../../../src/domain/scans/visitor-hash.ts';

const UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('visitorHash', () => {
  const salt = newSalt();

  it('is 32 lower-case hex characters (16 bytes of SHA-256)', () => {
    expect(visitorHash(salt, '203.0.113.9', UA)).toMatch(/^[0-9a-f]{32}$/);
  });

  it('is stable for the same salt, IP and UA', () => {
    expect(visitorHash(salt, '203.0.113.9', UA)).toBe(visitorHash(salt, '203.0.113.9', UA));
    expect(visitorHash('abc', '203.0.113.9', UA)).toBe(visitorHash(Buffer.from('abc'), '203.0.113.9', UA));
  });

  it('changes with the salt, the IP or the UA', () => {
    const base = visitorHash(salt, '203.0.113.9', UA);
    expect(visitorHash(newSalt(), '203.0.113.9', UA)).not.toBe(base);
    expect(visitorHash(salt, '203.0.113.10', UA)).not.toBe(base);
    expect(visitorHash(salt, '203.0.113.9', UA + ' x')).not.toBe(base);
  });

  it('does not let parts run together', () => {
    expect(visitorHash('s', '1.2.3.4', '5 UA')).not.toBe(visitorHash('s', '1.2.3.45', ' UA'));
  });

  it('keeps its stored format: SHA-256 over salt, NUL, IP, NUL, UA, first 16 bytes', () => {
    // Hashes already stored for today must match tomorrow's build, or uniques double-count across an upgrade.
    const reference = (s: Buffer | string, ip: string, ua: string): string =>
      createHash('sha256').update(s).update('\0').update(ip).update('\0').update(ua).digest().subarray(0, 16).toString('hex');
    fc.assert(
      fc.property(fc.ipV4(), fc.string(), fc.string(), (ip, ua, textSalt) => {
        expect(visitorHash(salt, ip, ua)).toBe(reference(salt, ip, ua));
        expect(visitorHash(textSalt, ip, ua)).toBe(reference(textSalt, ip, ua));
      }),
    );
    expect(visitorHash('salt', '203.0.113.9', 'ü UA')).toBe(reference('salt', '203.0.113.9', 'ü UA'));
  });

  it('treats an IPv4-mapped address as the plain IPv4 visitor', () => {
    expect(visitorHash(salt, '::ffff:203.0.113.9', UA)).toBe(visitorHash(salt, '203.0.113.9', UA));
  });

  it('never carries the IP: any address and UA give 32 hex characters without it', () => {
    fc.assert(
      fc.property(fc.oneof(fc.ipV4(), fc.ipV6()), fc.string(), (ip, ua) => {
        const hash = visitorHash(salt, ip, ua);
        expect(hash).toMatch(/^[0-9a-f]{32}$/);
        expect(hash.includes(ip)).toBe(false);
      }),
    );
  });
});

describe('newSalt', () => {
  it('is 32 random bytes', () => {
    const a = newSalt();
    expect(a).toHaveLength(32);
    expect(newSalt().equals(a)).toBe(false);
  });
});

describe('utcDay', () => {
  it('is the UTC calendar day, whatever the local time zone', () => {
    expect(utcDay(new Date('2026-11-22T23:59:59.999Z'))).toBe('2026-11-22');
    expect(utcDay(new Date('2026-11-23T00:30:00+02:00'))).toBe('2026-11-22');
    expect(utcDay(Date.UTC(2026, 0, 1))).toBe('2026-01-01');
  });
});
