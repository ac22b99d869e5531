// The client's address behind reverse proxies: only the X-Forwarded-For entries our own
// proxies appended are believed, so a client cannot choose the address its limits count by.
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientAddress, trustFunction } from '../../src/http/request/client-address.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

const request = (socket: string, forwarded?: string) =>
  ({
    socket: { remoteAddress: socket },
    connection: { remoteAddress: socket },
    headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
  }) as unknown as IncomingMessage;

describe('the client address', () => {
  it('is the entry just before the trusted proxies, never one the client wrote', () => {
    const chain = '203.0.113.9, 198.51.100.4, 192.0.2.77'; // client-written, client, proxy 1
    expect(clientAddress(request('10.0.0.2', chain), trustFunction(false))).toBe('10.0.0.2');
    // One proxy (TRUST_PROXY=true): it appended the client's address last.
    expect(clientAddress(request('10.0.0.2', chain), trustFunction(1))).toBe('192.0.2.77');
    // Two in a row (a CDN before nginx): the CDN's entry is trusted too.
    expect(clientAddress(request('10.0.0.2', chain), trustFunction(2))).toBe('198.51.100.4');
    // Listed proxies: trusted only when the request comes through them.
    expect(clientAddress(request('10.0.0.2', chain), trustFunction(['10.0.0.0/8']))).toBe('192.0.2.77');
    expect(clientAddress(request('192.0.2.50', chain), trustFunction(['10.0.0.0/8']))).toBe('192.0.2.50');
    expect(clientAddress(request('10.0.0.2'), trustFunction(1))).toBe('10.0.0.2');
  });
});

describe('per-address limits behind a proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({ TRUST_PROXY: 'true', AUTH_FAILURES_PER_MINUTE: '5' });
  });
  afterAll(() => t.close());

  it('count a client by the address the proxy saw, whatever it puts in front of it', async () => {
    const guess = (i: number, client: string) =>
      t.request({
        method: 'GET',
        url: '/v1/qr',
        headers: { authorization: `Bearer qrt_guess${i}`, 'x-forwarded-for': `198.51.100.${i}, ${client}` },
      });
    for (let i = 0; i < 5; i++) expect((await guess(i, '192.0.2.77')).statusCode).toBe(401);
    expect((await guess(5, '192.0.2.77')).statusCode).toBe(429);
    // Another client behind the same proxy is not affected.
    expect((await guess(6, '192.0.2.78')).statusCode).toBe(401);
  });
});
