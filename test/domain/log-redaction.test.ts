import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { accessPath } from '../../src/http/logging/access-log.ts';
import { maskAddress, redactUrl, requestSerializer } from '../../src/http/logging/log-redaction.ts';

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

  it('logs a request with its client masked to the network, as the access log does', () => {
    const line = requestSerializer({ method: 'GET', url: '/v1/qr?token=abc', host: 'qr.test', ip: '203.0.113.57' } as FastifyRequest);
    expect(line).toEqual({ method: 'GET', url: '/v1/qr?token=[token]', host: 'qr.test', remoteAddress: '203.0.113.0' });
  });

  it('keeps a client address only down to its network: IPv4 by /24, IPv6 by /48', () => {
    expect(maskAddress('203.0.113.77')).toBe('203.0.113.0');
    expect(maskAddress('::ffff:198.51.100.9')).toBe('198.51.100.0');
    expect(maskAddress('2001:db8:abcd:12:34::5')).toBe('2001:db8:abcd::');
    expect(maskAddress('2001:db8::1')).toBe('2001:db8::');
    expect(maskAddress('::1')).toBe('::');
    expect(maskAddress('fe80::1%eth0')).toBe('fe80::');
    expect(maskAddress('')).toBe('-');
    expect(maskAddress('not an address')).toBe('-');
  });

  it('logs a route template, or a short link’s path, never a query string', () => {
    expect(accessPath('/v1/qr/8d0c7c2e-1111-4222-8333-444455556666?x=1', '/v1/qr/:id')).toBe('/v1/qr/:id');
    expect(accessPath('/r/Ab3dE9z?token=secret&utm=x', undefined)).toBe('/r/Ab3dE9z');
    expect(accessPath('/r/Ab3dE9z?token=secret', '/r/:code')).toBe('/r/Ab3dE9z');
    expect(accessPath('/nothing/here?q=1#x', undefined)).toBe('/nothing/here');
    expect(accessPath(`/v1/invites/${'A'.repeat(43)}?a=b`, undefined)).toBe('/v1/invites/[token]');
    expect(accessPath(`/junk/qrt_${'a'.repeat(40)}`, undefined)).toBe('/junk/[token]');
  });
});
