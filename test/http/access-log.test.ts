// ACCESS_LOG=true: one line per request (the short links' fast path included) with method,
// route template or short-link path, status, duration and bytes; never a query string of /r/*,
// a key, a cookie or a whole client address.
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { type Db, openDatabase } from '../../src/db/database.ts';
import { generateApiKey, parseScopes } from '../../src/domain/accounts/api-key.ts';
import { freshDatabaseUrl } from '../support/databases.ts';
import { PUBLIC_BASE_URL } from '../support/test-app.ts';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

interface Line {
  level: number;
  msg: string;
  method?: string;
  path?: string;
  status?: number;
  ms?: number;
  bytes?: number | null;
  client?: string;
}

let cleanup: (() => Promise<void>) | null = null;
afterEach(async () => {
  await cleanup?.();
  cleanup = null;
});

/** A listening app whose JSON log lines are collected. */
async function loggedApp(env: Record<string, string>) {
  const { url, dispose } = await freshDatabaseUrl();
  const config = loadConfig({ DATABASE_URL: url, PUBLIC_BASE_URL, LOG_FORMAT: 'json', ...env });
  const db: Db = await openDatabase(config.database);
  let text = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  const { app, services } = await buildApp(config, db, { logStream: stream });
  await app.listen({ port: 0, host: '127.0.0.1' });
  cleanup = async () => {
    await app.close();
    await db.close();
    await dispose();
  };
  const accountId = await services.keys.ensureAccount('acme');
  const k = generateApiKey();
  await services.keys.createKey({ accountId, name: 'test', prefix: k.prefix, hash: k.hash, scopes: parseScopes('qr:read,qr:write') });
  return {
    base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    key: k.key,
    lines: () =>
      text
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Line),
    text: () => text,
  };
}

describe('the access log', () => {
  it('writes one line per request, short links on the fast path included, without query strings, keys or whole addresses', async () => {
    const { base, key, lines, text } = await loggedApp({ ACCESS_LOG: 'true', LOG_LEVEL: 'warn' });
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const made = await fetch(`${base}/v1/qr`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ title: 'Menu', url: 'https://example.com/menu' }),
    });
    expect(made.status).toBe(201);
    const item = ((await made.json()) as { item: { id: string; code: string } }).item;
    await fetch(`${base}/v1/qr/${item.id}?include=x`, { headers: auth });
    const scan = await fetch(`${base}/r/${item.code}?token=visitor-secret&utm_source=flyer`, {
      redirect: 'manual',
      headers: { 'user-agent': IPHONE, cookie: 'qrp_x=cookie-secret' },
    });
    expect(scan.status).toBe(302);
    await fetch(`${base}/r/nosuchcode?token=other-secret`, { method: 'HEAD' });
    await fetch(`${base}/v1/qr?q=private-search`, { headers: { authorization: 'Bearer qrt_wrongwrongwrongwrongwrongwrongwrongwrong' } });
    await fetch(`${base}/no/such/page?x=1`);

    await expect.poll(() => lines().filter((l) => l.msg === 'request').length).toBe(6);
    const requests = lines().filter((l) => l.msg === 'request');
    expect(requests.map((l) => [l.method, l.path, l.status])).toEqual([
      ['POST', '/v1/qr', 201],
      ['GET', '/v1/qr/:id', 200],
      ['GET', `/r/${item.code}`, 302],
      ['HEAD', '/r/nosuchcode', 404],
      ['GET', '/v1/qr', 401],
      ['GET', '/no/such/page', 404],
    ]);
    for (const l of requests) {
      // At info, though LOG_LEVEL is warn: asking for an access log is asking for its lines.
      expect(l.level).toBe(30);
      expect(l.client).toBe('127.0.0.0');
      expect(typeof l.ms).toBe('number');
      expect(l.ms).toBeGreaterThanOrEqual(0);
      expect(typeof l.bytes).toBe('number');
    }
    expect(requests[2]?.bytes).toBe(0);
    expect(requests[0]?.bytes).toBeGreaterThan(100);
    const all = text();
    for (const secret of ['visitor-secret', 'other-secret', 'cookie-secret', 'private-search', key, 'qrt_wrong', item.id, '127.0.0.1']) {
      expect(all, secret).not.toContain(secret);
    }
  });

  it('is off by default', async () => {
    const { base, lines } = await loggedApp({ LOG_LEVEL: 'info' });
    await fetch(`${base}/healthz`);
    await fetch(`${base}/r/nosuchcode`);
    expect(lines().filter((l) => l.msg === 'request')).toEqual([]);
  });
});
