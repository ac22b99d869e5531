import { describe, expect, it } from 'vitest';
import { referrerHost } from '../../../src/domain/scans/referrer.ts';

describe('referrerHost', () => {
  it.each([
    ['https://www.Instagram.com/p/abc?utm=1#x', 'www.instagram.com'],
    ['http://example.com', 'example.com'],
    ['https://EXAMPLE.com:8443/path', 'example.com'],
    ['https://user:secret@example.com/', 'example.com'],
    ['https://example.com./', 'example.com'],
    ['  https://example.com/  ', 'example.com'],
    ['https://bücher.example/', 'xn--bcher-kva.example'],
    ['http://192.168.1.10:3000/', '192.168.1.10'],
    ['http://[2001:db8::1]/x', '[2001:db8::1]'],
  ])('keeps only the lower-case host of %s', (header, host) => {
    expect(referrerHost(header)).toBe(host);
  });

  it.each([
    [undefined],
    [''],
    ['   '],
    ['not a url'],
    ['/relative/path'],
    ['example.com'],
    ['android-app://com.google.android.gm/'],
    ['ftp://example.com/file'],
    ['file:///etc/passwd'],
    ['javascript:alert(1)'],
    ['data:text/html,hi'],
    ['https://' + 'a'.repeat(3000) + '.com/'],
  ])('answers null for %s', (header) => {
    expect(referrerHost(header)).toBeNull();
  });
});
