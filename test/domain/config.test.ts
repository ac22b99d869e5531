import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, defaultRenderWorkers, loadConfig, parseDatabaseUrl } from '../../src/config.ts';

describe('configuration', () => {
  it('defaults to the embedded SQLite file, port 3000 and a localhost public URL', () => {
    const c = loadConfig({}, '/srv/app');
    expect(c).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      publicBaseUrl: 'http://localhost:3000',
      logLevel: 'info',
      rateLimitPerMinute: 600,
    });
    expect(c.database).toEqual({ kind: 'sqlite', file: path.resolve('/srv/app/data/qrtrack.db') });
  });

  it('understands every DATABASE_URL form', () => {
    expect(parseDatabaseUrl('sqlite:./x/y.db', '/w')).toEqual({ kind: 'sqlite', file: '/w/x/y.db' });
    expect(parseDatabaseUrl('sqlite:/var/lib/q.db', '/w')).toEqual({ kind: 'sqlite', file: '/var/lib/q.db' });
    expect(parseDatabaseUrl('sqlite::memory:')).toEqual({ kind: 'sqlite', file: ':memory:' });
    expect(parseDatabaseUrl('postgres://u@h:5432/d')).toEqual({ kind: 'postgres', url: 'postgres://u@h:5432/d' });
    expect(parseDatabaseUrl('postgresql://u@h/d')).toEqual({ kind: 'postgres', url: 'postgresql://u@h/d' });
  });

  it('logs readable lines on a terminal and JSON otherwise, unless LOG_FORMAT says', () => {
    expect(loadConfig({}, '/w', true).logFormat).toBe('pretty');
    expect(loadConfig({}, '/w', false).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'json' }, '/w', true).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'Pretty' }, '/w', false).logFormat).toBe('pretty');
  });

  it('derives PUBLIC_BASE_URL from PORT and strips a trailing slash', () => {
    expect(loadConfig({ PORT: '8080' }).publicBaseUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://qr.example.com/' }).publicBaseUrl).toBe('https://qr.example.com');
    expect(loadConfig({ PUBLIC_BASE_URL: 'HTTPS://QR.Example.com' }).publicBaseUrl).toBe('https://qr.example.com');
  });

  it('refuses a PUBLIC_BASE_URL with a path, and PORT 0 without a PUBLIC_BASE_URL', () => {
    expect(() => loadConfig({ PUBLIC_BASE_URL: 'http://localhost:3955/with/path' })).toThrow(
      /^PUBLIC_BASE_URL: must be the site's root, without a path/,
    );
    expect(() => loadConfig({ PORT: '0' })).toThrow(/^PUBLIC_BASE_URL: must be set when PORT is 0/);
    expect(loadConfig({ PORT: '0', PUBLIC_BASE_URL: 'https://qr.example.com' }).port).toBe(0);
  });

  it("reads TRUST_PROXY as no proxy, one proxy, a number of proxies, or the proxies' addresses", () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,loopback' }).trustProxy).toEqual(['10.0.0.0/8', '192.168.1.7', 'loopback']);
    for (const bad of ['maybe', '11', '10.0.0.0/99', '300.1.2.3'])
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/^TRUST_PROXY: must be true, false, a number of proxies/);
  });

  it('leaves the main thread a core of its own: one render worker per core but one, at least one', () => {
    expect([1, 2, 4, 16].map((cores) => defaultRenderWorkers(cores))).toEqual([1, 1, 3, 15]);
    expect(loadConfig({ RENDER_WORKERS: '3', RENDER_TIMEOUT_MS: '500', RENDER_QUEUE: '0' }).render).toEqual({
      workers: 3,
      timeoutMs: 500,
      queue: 0,
      wallLimitMs: 10_000,
    });
  });

  it('gives a render ten budgets and at least 10 s of wall time unless RENDER_WALL_LIMIT_MS says otherwise (50 ms to 10 min)', () => {
    expect(loadConfig({}).render.wallLimitMs).toBe(20_000);
    expect(loadConfig({ RENDER_TIMEOUT_MS: '5000' }).render.wallLimitMs).toBe(50_000);
    expect(loadConfig({ RENDER_WALL_LIMIT_MS: '50' }).render.wallLimitMs).toBe(50);
    expect(loadConfig({ RENDER_WALL_LIMIT_MS: '600000' }).render.wallLimitMs).toBe(600_000);
    expect(() => loadConfig({ RENDER_WALL_LIMIT_MS: '49' })).toThrow(/^RENDER_WALL_LIMIT_MS: /);
    expect(() => loadConfig({ RENDER_WALL_LIMIT_MS: '600001' })).toThrow(/^RENDER_WALL_LIMIT_MS: /);
  });

  it.each([
    [{ RENDER_WORKERS: '0' }, /^RENDER_WORKERS: /],
    [{ RENDER_TIMEOUT_MS: 'soon' }, /^RENDER_TIMEOUT_MS: /],
    [{ RENDER_QUEUE: '-1' }, /^RENDER_QUEUE: /],
    [{ PORT: 'eighty' }, /^PORT: /],
    [{ PORT: '70000' }, /^PORT: /],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL: /],
    [{ DATABASE_URL: 'sqlite:' }, /^DATABASE_URL: /],
    [{ PUBLIC_BASE_URL: 'ftp://x' }, /^PUBLIC_BASE_URL: /],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL: /],
    [{ RATE_LIMIT_PER_MINUTE: '0' }, /^RATE_LIMIT_PER_MINUTE: /],
    [{ REDIS_URL: 'http://x' }, /^REDIS_URL: /],
    [{ METRICS_PORT: 'nine' }, /^METRICS_PORT: must be an integer from 0 to 65535/],
    [{ METRICS_PORT: '3000' }, /^METRICS_PORT: must differ from PORT \(3000\)/],
    [{ METRICS_HOST: '127.0.0.1' }, /^METRICS_HOST: is set, but METRICS_PORT is not/],
    [{ ACCESS_LOG: 'maybe' }, /^ACCESS_LOG: must be true or false, got "maybe"/],
    [{ SHORT_LINK_CACHE_MB: '0' }, /^SHORT_LINK_CACHE_MB: must be an integer from 1 to 65536, got "0"/],
    [{ SHORT_LINK_CACHE_MB: '65537' }, /^SHORT_LINK_CACHE_MB: must be an integer from 1 to 65536/],
    [{ SHORT_LINK_CACHE_MB: '1.5' }, /^SHORT_LINK_CACHE_MB: must be an integer/],
  ])('rejects %o with one clear line', (env, message) => {
    expect(() => loadConfig(env as NodeJS.ProcessEnv)).toThrow(ConfigError);
    expect(() => loadConfig(env as NodeJS.ProcessEnv)).toThrow(message);
  });

  it('serves metrics only when METRICS_PORT is set, on HOST unless METRICS_HOST says; the access log is off by default', () => {
    expect(loadConfig({}).metrics).toBeNull();
    expect(loadConfig({ METRICS_PORT: '' }).metrics).toBeNull();
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ port: 9464, host: '0.0.0.0' });
    expect(loadConfig({ METRICS_PORT: '9464', HOST: '10.0.0.5', METRICS_HOST: '127.0.0.1' }).metrics).toEqual({
      port: 9464,
      host: '127.0.0.1',
    });
    expect(loadConfig({}).accessLog).toBe(false);
    expect(loadConfig({}).shortLinkCacheBytes).toBe(64 * 1024 * 1024);
    expect(loadConfig({ SHORT_LINK_CACHE_MB: '1' }).shortLinkCacheBytes).toBe(1024 * 1024);
    expect(loadConfig({ SHORT_LINK_CACHE_MB: '65536' }).shortLinkCacheBytes).toBe(65_536 * 1024 * 1024);
    expect(loadConfig({ ACCESS_LOG: 'true' }).accessLog).toBe(true);
    expect(loadConfig({ ACCESS_LOG: '0' }).accessLog).toBe(false);
  });
});
