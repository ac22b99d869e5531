import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, looksLikeApiKey, parseScopes, randomBase62 } from '../../src/domain/accounts/api-key.ts';
import { decodeCursor, encodeCursor } from '../../src/domain/qr-items/list-cursor.ts';
import { generateShortCode, isShortCode } from '../../src/domain/qr-items/short-code.ts';

describe('API keys', () => {
  it('are qrt_ plus 40 base62 characters, stored as SHA-256 with a short visible prefix', () => {
    const k = generateApiKey();
    expect(k.key).toMatch(/^qrt_[0-9A-Za-z]{40}$/);
    expect(k.hash).toBe(hashApiKey(k.key));
    expect(k.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(k.key.startsWith(k.prefix)).toBe(true);
    expect(k.prefix.length).toBeLessThan(12);
    expect(looksLikeApiKey(k.key)).toBe(true);
    expect(generateApiKey().key).not.toBe(k.key);
  });

  it('rejects malformed tokens without a lookup', () => {
    for (const t of ['', 'qrt_', 'qrt_short', 'abc_' + 'x'.repeat(40), 'qrt_' + 'x'.repeat(40) + '!', 'qrt_' + 'x'.repeat(200)]) {
      expect(looksLikeApiKey(t)).toBe(false);
    }
  });

  it('parses scopes from a closed list', () => {
    expect(parseScopes('qr:write,qr:read')).toEqual(['qr:read', 'qr:write']);
    expect(parseScopes(' qr:read ')).toEqual(['qr:read']);
    expect(() => parseScopes('qr:admin')).toThrow(/unknown scope/);
    expect(() => parseScopes('')).toThrow(/at least one/);
  });

  it('draws base62 characters uniformly enough that every character appears', () => {
    const s = randomBase62(20_000);
    expect(new Set(s).size).toBe(62);
  });
});

describe('short codes and cursors', () => {
  it('makes 7-character base62 codes', () => {
    for (let i = 0; i < 100; i++) expect(isShortCode(generateShortCode())).toBe(true);
    expect(isShortCode('abc')).toBe(false);
    expect(isShortCode('abcdef!')).toBe(false);
  });

  it('round-trips a cursor and rejects forged ones', () => {
    const c = { createdAt: '2026-11-23T01:02:03.456Z', id: '0b9a0e58-8f7c-4d0e-9d43-6a1f3d7c2b10' };
    expect(decodeCursor(encodeCursor(c))).toEqual(c);
    for (const bad of ['', 'garbage', Buffer.from('[1,2]').toString('base64url'), Buffer.from('["x","y"]').toString('base64url')]) {
      expect(() => decodeCursor(bad)).toThrow(/^cursor: /);
    }
  });
});
