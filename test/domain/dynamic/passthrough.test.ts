import { describe, expect, it } from 'vitest';
import { capQuery, MAX_FORWARDED_QUERY, withQuery } from '../../../src/domain/dynamic/passthrough.ts';
import { PAYLOAD_MAX_LENGTH } from '../../../src/domain/payload/index.ts';

const DEST = 'https://shop.example.com/spring/sale?lang=de&ref=qr#top';

/** Everything of a URL but its query: what no visitor may change. */
const frame = (href: string) => {
  const u = new URL(href);
  return { protocol: u.protocol, username: u.username, password: u.password, host: u.host, pathname: u.pathname, hash: u.hash };
};

describe('withQuery', () => {
  it('returns the destination itself when there is nothing to add', () => {
    expect(withQuery(DEST, '', true, null)).toBe(DEST);
    expect(withQuery(DEST, 'a=1', false, null)).toBe(DEST);
    expect(withQuery(DEST, '?', true, null)).toBe(DEST);
  });

  it('merges the visitor’s parameters, the visitor’s value winning, and keeps the rest byte for byte', () => {
    expect(withQuery('https://example.com/p?a=1&b=x%2Cy&c=3', 'b=2&d=4', true, null)).toBe('https://example.com/p?a=1&c=3&b=2&d=4');
    expect(withQuery('https://example.com/p', 'x=1&x=2', true, null)).toBe('https://example.com/p?x=1&x=2');
    expect(withQuery('https://example.com/p?x=0&y=1&x=9', '?x=1', true, null)).toBe('https://example.com/p?y=1&x=1');
  });

  it('keeps the destination’s fragment after the query', () => {
    expect(withQuery(DEST, 'ref=poster', true, null)).toBe('https://shop.example.com/spring/sale?lang=de&ref=poster#top');
  });

  it('adds utm parameters: over the destination’s own, under the visitor’s', () => {
    const utm = { source: 'poster', medium: 'print', campaign: 'spring 2026' };
    expect(withQuery('https://example.com/?utm_source=old&a=1', '', true, utm)).toBe(
      'https://example.com/?a=1&utm_source=poster&utm_medium=print&utm_campaign=spring+2026',
    );
    expect(withQuery('https://example.com/', 'utm_source=newsletter', true, utm)).toBe(
      'https://example.com/?utm_source=newsletter&utm_medium=print&utm_campaign=spring+2026',
    );
    // Without forwarding, the visitor has no say.
    expect(withQuery('https://example.com/', 'utm_source=newsletter', false, utm)).toBe(
      'https://example.com/?utm_source=poster&utm_medium=print&utm_campaign=spring+2026',
    );
    expect(withQuery('https://example.com/', '', true, {})).toBe('https://example.com/');
  });

  it('does what the documentation’s example says', () => {
    expect(
      withQuery('https://shop.example.com/sale?lang=de&utm_source=web#top', 'utm_source=newsletter&ref=7', true, {
        source: 'poster',
        campaign: 'spring',
      }),
    ).toBe('https://shop.example.com/sale?lang=de&utm_source=newsletter&ref=7&utm_campaign=spring#top');
  });

  it('leaves a destination that is not http(s) alone', () => {
    expect(withQuery('mailto:a@example.com?subject=Hi', 'x=1', true, { source: 's' })).toBe('mailto:a@example.com?subject=Hi');
  });

  describe('hostile input never changes anything but the query', () => {
    it.each([
      ['@evil.example'],
      ['?@evil.example'],
      ['//evil.example'],
      ['x=1#@evil.example'],
      ['#//evil.example/'],
      ['a=%0d%0aLocation:%20https://evil.example'],
      ['a=\r\nSet-Cookie: x=1'],
      ['x=1&/../../admin'],
      ['next=https://evil.example/&url=//evil.example'],
      ['%2F%2Fevil.example'],
      ['a=%23frag&b=%3F%2F%40'],
      ['x=%E0%A4%A'],
      ['\\evil.example'],
      ['a=<script>alert(1)</script>'],
      ['a=é&ü=😀'],
    ])('visitor query %j', (query) => {
      const out = withQuery(DEST, query, true, { source: 'qr' });
      expect(frame(out)).toEqual(frame(DEST));
      expect(out.startsWith('https://shop.example.com/spring/sale?')).toBe(true);
      expect(out.endsWith('#top')).toBe(true);
      expect(out).not.toMatch(/[\r\n\s<>\\]/);
      // Only ASCII reaches Location.
      expect(out).toMatch(/^[\x21-\x7e]+$/);
      expect(out.indexOf('#')).toBe(out.length - 4);
    });

    it('encodes what the visitor sends, so it stays a value', () => {
      expect(withQuery('https://example.com/', 'next=//evil.example/@x#y', true, null)).toBe(
        'https://example.com/?next=%2F%2Fevil.example%2F%40x',
      );
      expect(withQuery('https://example.com/', 'a=%0d%0a', true, null)).toBe('https://example.com/?a=%0D%0A');
      expect(new URL(withQuery('https://example.com/', 'a=%0d%0a', true, null)).searchParams.get('a')).toBe('\r\n');
    });

    it('cuts a very long visitor query at a whole parameter', () => {
      const long = Array.from({ length: 500 }, (_, i) => `p${i}=${'v'.repeat(10)}`).join('&');
      const out = withQuery('https://example.com/', long, true, null);
      const kept = new URL(out).searchParams;
      expect([...kept.keys()].length).toBeGreaterThan(100);
      for (const [k, v] of kept) {
        expect(k).toMatch(/^p\d+$/);
        expect(v).toBe('vvvvvvvvvv');
      }
      expect(out.length).toBeLessThanOrEqual('https://example.com/?'.length + MAX_FORWARDED_QUERY);
    });

    it('drops the visitor’s part, then the utm part, when the result would pass the payload maximum', () => {
      const dest = `https://example.com/${'p'.repeat(1900)}`;
      // 1000 characters that each encode to 6 (%C3%A9): far past the maximum once encoded.
      const heavy = `a=${'é'.repeat(1000)}`;
      expect(withQuery(dest, heavy, true, { source: 's' })).toBe(`${dest}?utm_source=s`);
      const utm = {
        source: 'ü'.repeat(200),
        medium: 'ü'.repeat(200),
        campaign: 'ü'.repeat(200),
        term: 'ü'.repeat(200),
        content: 'ü'.repeat(200),
      };
      expect(withQuery(dest, heavy, true, utm)).toBe(dest);
      expect(withQuery(dest, 'a=1', true, null).length).toBeLessThanOrEqual(PAYLOAD_MAX_LENGTH);
    });
  });
});

describe('capQuery', () => {
  it('drops a leading ?, a fragment, and parameters past the cap', () => {
    expect(capQuery('?a=1')).toBe('a=1');
    expect(capQuery('a=1#b=2')).toBe('a=1');
    expect(capQuery(`a=${'x'.repeat(3000)}`)).toBe('');
    expect(capQuery(`a=1&b=${'x'.repeat(3000)}`)).toBe('a=1');
    const exact = `a=${'x'.repeat(MAX_FORWARDED_QUERY - 2)}`;
    expect(capQuery(exact)).toBe(exact);
  });
});
