import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/http/logging/log-redaction.ts';

describe('log redaction', () => {
  it('hides one-time link tokens in logged request paths and keeps everything else', () => {
    const token = 'A'.repeat(43);
    expect(redactUrl(`/v1/setup/${token}`)).toBe('/v1/setup/[token]');
    expect(redactUrl(`/v1/invites/${token}/accept`)).toBe('/v1/invites/[token]/accept');
    expect(redactUrl(`/v1/password-resets/${token}?x=1`)).toBe('/v1/password-resets/[token]?x=1');
    expect(redactUrl('/v1/qr?limit=5')).toBe('/v1/qr?limit=5');
    expect(redactUrl(`/app/invite/${token}`)).toBe('/app/invite/[token]');
    expect(redactUrl(`/app/reset/${token}#x`)).toBe('/app/reset/[token]#x');
    expect(redactUrl('/v1/qr?q=menu&token=abc&limit=5')).toBe('/v1/qr?q=menu&token=[token]&limit=5');
    expect(redactUrl(`/v1/x/qrt_${'a'.repeat(40)}`)).toBe('/v1/x/[token]');
    expect(redactUrl('/r/abc123')).toBe('/r/abc123');
  });
});
