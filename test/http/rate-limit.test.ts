import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ RATE_LIMIT_PER_MINUTE: '5' });
});
afterAll(() => t.close());

describe('rate limits', () => {
  it('answers 429 with Retry-After and RateLimit headers per key, other keys unaffected', async () => {
    const a = await t.key('ra');
    const b = await t.key('rb');
    for (let i = 0; i < 5; i++) {
      const res = await t.request({ method: 'GET', url: '/v1/qr', key: a });
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe('5');
      expect(res.headers['ratelimit-remaining']).toBe(String(4 - i));
      expect(res.headers['ratelimit-reset']).toBeDefined();
    }
    const limited = await t.request({ method: 'GET', url: '/v1/qr', key: a });
    expect(limited.statusCode).toBe(429);
    expect(Object.keys(limited.json())).toEqual(['error']);
    expect(limited.json().error).toMatch(/rate limit/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await t.request({ method: 'GET', url: '/v1/qr', key: b })).statusCode).toBe(200);
  });

  it('never limits short links', async () => {
    for (let i = 0; i < 12; i++) {
      const res = await t.request({ method: 'GET', url: '/r/zzzzzzz' });
      expect(res.statusCode).toBe(404);
      expect(res.headers['ratelimit-limit']).toBeUndefined();
    }
  });
});

describe('the shared rate-limit store', () => {
  it('refuses to start when REDIS_URL cannot be reached, naming it (it used to start with no limit at all)', async () => {
    const config = loadConfig({
      DATABASE_URL: 'sqlite::memory:',
      LOG_LEVEL: 'silent',
      PUBLIC_BASE_URL: 'http://qr.test',
      REDIS_URL: 'redis://:secret@127.0.0.1:1',
    });
    const db = await openDatabase(config.database);
    try {
      await expect(buildApp(config, db)).rejects.toThrow(/^REDIS_URL: cannot reach redis:\/\/:\*\*\*@127\.0\.0\.1:1 \(/);
    } finally {
      await db.close();
    }
  });
});

const REDIS_URL = process.env.TEST_REDIS_URL;

describe.skipIf(!REDIS_URL)('sign-in failures with REDIS_URL', () => {
  it('are counted once for every process: five wrong passwords over two processes lock the email on both', async () => {
    // Two apps as two processes would be: each its own memory, one Redis between them.
    const [a, b] = [await makeTestApp({ REDIS_URL: REDIS_URL as string }), await makeTestApp({ REDIS_URL: REDIS_URL as string })];
    try {
      const email = `nobody-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
      const remoteAddress = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
      const signIn = (app: typeof a) =>
        app.app.inject({ method: 'POST', url: '/v1/session', remoteAddress, payload: { email, password: 'wrong wrong wrong' } });
      for (const app of [a, b, a, b, a]) expect((await signIn(app)).statusCode).toBe(401);
      for (const app of [a, b]) {
        const limited = await signIn(app);
        expect(limited.statusCode).toBe(429);
        expect(Number(limited.headers['retry-after'])).toBeGreaterThan(800);
      }
    } finally {
      await a.close();
      await b.close();
    }
  });
});
