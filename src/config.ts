// The only reader of process.env. Validates everything once at start-up and
// fails with one clear line, so a typo in deployment never becomes a 5xx later.
import { DELIVERY_TIMEOUT_MS, RETRY_DELAYS_MS } from './domain/webhooks/retry-policy.ts';
import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import proxyAddr from '@fastify/proxy-addr';

/** The short links' cache per process (SHORT_LINK_CACHE_MB): some 100,000 plain URL codes. */
export const DEFAULT_SHORT_LINK_CACHE_MB = 64;

export type DatabaseConfig =
  | { kind: 'sqlite'; file: string } // file ':memory:' for an in-memory database
  | { kind: 'postgres'; url: string };

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
/** `pretty`: one readable, coloured line per entry (for people); `json`: one JSON object per line (for machines). */
export type LogFormat = 'pretty' | 'json';

/** false: no proxy; a number: that many proxies in front; a list: the proxies' addresses or CIDR ranges. */
export type TrustProxy = false | number | string[];

export interface Config {
  port: number;
  host: string;
  database: DatabaseConfig;
  /**
   * PUBLIC_BASE_URL, or http://localhost:<PORT> when unset. The address in force is the
   * services' publicAddress (the one stored at first run unless PUBLIC_BASE_URL is set).
   */
  publicBaseUrl: string;
  /** Whether PUBLIC_BASE_URL was set: then it overrides the stored address. */
  publicBaseUrlFromEnv: boolean;
  /** DNS servers for domain verification (host or host:port); null: the system's. */
  dnsResolvers: string[] | null;
  logLevel: LogLevel;
  logFormat: LogFormat;
  rateLimitPerMinute: number;
  /** Failed authentications one client address may make per minute before it gets 429. */
  authFailuresPerMinute: number;
  redisUrl: string | null;
  /** Header set by a trusted proxy carrying the visitor's country (e.g. cf-ipcountry); null: none trusted. */
  countryHeader: string | null;
  /** Which X-Forwarded-For entries to believe: none, the last N hops, or those of the listed proxies. */
  trustProxy: TrustProxy;
  render: RenderConfig;
  reads: ReadConfig;
  /** The short links' cache per process, in bytes (SHORT_LINK_CACHE_MB). */
  shortLinkCacheBytes: number;
  /** Who may create an account in the web app: only people with an invite, or anyone. */
  signup: 'invite' | 'open';
  /** After SIGTERM/SIGINT, how long requests in flight may take before their connections are cut. */
  shutdownTimeoutMs: number;
  connections: ConnectionConfig;
  /** Live codes one account may hold; creates, batches and imports past it are refused (400). */
  maxCodesPerAccount: number;
  /** GET /metrics on a listener of its own; null: no metrics. */
  metrics: MetricsConfig | null;
  /** One log line per request (ACCESS_LOG=true). */
  accessLog: boolean;
  webhooks: WebhookConfig;
}

/** The webhooks' delivery (docs/webhooks.md). */
export interface WebhookConfig {
  /** WEBHOOK_ALLOW_PRIVATE=true: http URLs and private, loopback and link-local receivers are allowed. */
  allowPrivate: boolean;
  /** The waits before each retry (WEBHOOK_RETRY_SCHEDULE, seconds; the specification's by default). */
  retryDelaysMs: number[];
  /** How often the worker looks for due deliveries. */
  pollMs: number;
  /** A delivery with no answer by then failed (10 s). */
  timeoutMs: number;
}

/** Where GET /metrics listens: apart from the public port, for a scraper inside the deployment. */
export interface MetricsConfig {
  /** 0: one chosen at start (tests). */
  port: number;
  host: string;
}

/** How many connections a peer may hold open, and how long a request may take to arrive. */
export interface ConnectionConfig {
  /** Open connections per peer address (an IPv6 /64); 0: no cap. Trusted proxies (TRUST_PROXY) are exempt. */
  maxPerAddress: number;
  /** A request's headers must have arrived this long after it began, or its connection is closed (408). */
  headersTimeoutMs: number;
  /** A request's body must have arrived this long after its headers, on every route but the large-body ones. */
  requestTimeoutMs: number;
  /** The same for imports and batches (16 MiB bodies). */
  largeBodyTimeoutMs: number;
}

/** The render pool: how many worker threads, how much CPU each job may use, how many may wait. */
export interface RenderConfig {
  workers: number;
  /** CPU time one render may use before it is stopped and refused. */
  timeoutMs: number;
  /** Renders waiting for a worker beyond which new ones are answered 503. */
  queue: number;
  /** Wall time a render may wait for a worker, or run starved of CPU, before it is answered 503. */
  wallLimitMs: number;
}

/**
 * The read workers (SQLite only; src/read-pool/): stats, sparklines, the overview and exports
 * read there, off the thread that answers short links. 0 workers: they read on that thread.
 */
export interface ReadConfig {
  workers: number;
  /** Reads waiting for a worker (per lane) beyond which new ones are answered 503. */
  queue: number;
  /** A read waiting longer than this for a worker is answered 503. */
  waitMs: number;
}

/**
 * One worker per core but one: the main thread answers the short links and must keep a
 * core of its own, so on a 2-core machine one render runs at a time.
 */
export function defaultRenderWorkers(cores = os.availableParallelism()): number {
  return Math.max(1, cores - 1);
}

export class ConfigError extends Error {}

function parseRender(env: NodeJS.ProcessEnv): RenderConfig {
  const timeoutMs = parseIntRange('RENDER_TIMEOUT_MS', env.RENDER_TIMEOUT_MS, 2000, 10, 60_000);
  return {
    workers: parseIntRange('RENDER_WORKERS', env.RENDER_WORKERS, defaultRenderWorkers(), 1, 64),
    timeoutMs,
    queue: parseIntRange('RENDER_QUEUE', env.RENDER_QUEUE, 16, 0, 10_000),
    // Ten budgets and at least 10 s: past it the machine is far over capacity.
    wallLimitMs: parseIntRange('RENDER_WALL_LIMIT_MS', env.RENDER_WALL_LIMIT_MS, Math.max(10 * timeoutMs, 10_000), 50, 600_000),
  };
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function parseDatabaseUrl(raw: string | undefined, cwd = process.cwd()): DatabaseConfig {
  if (raw === undefined || raw === '') return { kind: 'sqlite', file: path.resolve(cwd, 'data/qrtrack.db') };
  if (raw === 'sqlite::memory:') return { kind: 'sqlite', file: ':memory:' };
  if (raw.startsWith('sqlite:')) {
    const p = raw.slice('sqlite:'.length);
    if (p === '') throw new ConfigError('DATABASE_URL: sqlite: needs a path, e.g. sqlite:./data/qrtrack.db');
    return { kind: 'sqlite', file: path.resolve(cwd, p) };
  }
  if (/^postgres(ql)?:\/\//.test(raw)) {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError('DATABASE_URL: not a valid postgres:// URL');
    }
    return { kind: 'postgres', url: raw };
  }
  throw new ConfigError('DATABASE_URL: must start with sqlite:, postgres:// or postgresql://');
}

function parseIntRange(name: string, raw: string | undefined, def: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return def;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name}: must be an integer from ${min} to ${max}, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name}: must be an integer from ${min} to ${max}, got "${raw}"`);
  return n;
}

/**
 * TRUST_PROXY: false (default), true (one reverse proxy in front: the right-most
 * X-Forwarded-For entry is the client), a number of proxies in a row (a CDN before nginx: 2),
 * or a comma-separated list of the proxies' addresses or CIDR ranges.
 */
function parseTrustProxy(raw: string | undefined): TrustProxy {
  if (raw === undefined || raw === '' || /^(0|false|no)$/i.test(raw)) return false;
  if (/^(true|yes)$/i.test(raw)) return 1;
  const refuse = () =>
    new ConfigError(
      `TRUST_PROXY: must be true, false, a number of proxies (1 to 10) or a comma-separated list of proxy addresses or CIDR ranges, got "${raw}"`,
    );
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 10) throw refuse();
    return hops;
  }
  const list = raw.split(',').map((v) => v.trim());
  try {
    proxyAddr.compile(list); // throws on an entry that is no address, range or named range
  } catch {
    throw refuse();
  }
  return list;
}

/** `stdoutIsTty` picks the default log format: readable on a terminal, JSON when piped or collected. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd(), stdoutIsTty = process.stdout.isTTY === true): Config {
  const port = parseIntRange('PORT', env.PORT, 3000, 0, 65535);
  const host = env.HOST || '0.0.0.0';
  const logLevel = (env.LOG_LEVEL || 'info').toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL: must be one of ${LOG_LEVELS.join(', ')}`);
  const logFormat = (env.LOG_FORMAT || (stdoutIsTty ? 'pretty' : 'json')).toLowerCase();
  if (logFormat !== 'pretty' && logFormat !== 'json') throw new ConfigError(`LOG_FORMAT: must be pretty or json, got "${env.LOG_FORMAT}"`);
  // Port 0 is chosen at start, so no address built from it would reach the server.
  if (port === 0 && !env.PUBLIC_BASE_URL)
    throw new ConfigError(
      'PUBLIC_BASE_URL: must be set when PORT is 0 (the port is chosen at start, so short links cannot be built from it)',
    );
  const given = env.PUBLIC_BASE_URL || `http://localhost:${port}`;
  let u: URL;
  try {
    u = new URL(given);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
    if (u.search || u.hash) throw new Error('query');
  } catch {
    throw new ConfigError(`PUBLIC_BASE_URL: must be an http(s) URL without query, got "${given}"`);
  }
  // The web app and the API live at /app/ and /v1/ of the site's root: a path cannot work.
  if (u.pathname.replace(/\/+$/, '') !== '')
    throw new ConfigError(
      `PUBLIC_BASE_URL: must be the site's root, without a path (the app is served at /app/ and the API at /v1/), got "${given}"`,
    );
  // The origin: scheme and host in lower case (HTTPS://… is https, for the cookie's Secure flag too).
  const publicBaseUrl = u.origin;
  const redisUrl = env.REDIS_URL || null;
  if (redisUrl !== null && !/^rediss?:\/\//.test(redisUrl)) throw new ConfigError('REDIS_URL: must start with redis:// or rediss://');
  const countryHeader = env.COUNTRY_HEADER ? env.COUNTRY_HEADER.toLowerCase() : null;
  if (countryHeader !== null && !/^[a-z0-9-]+$/.test(countryHeader)) throw new ConfigError('COUNTRY_HEADER: must be a header name');
  const signup = (env.SIGNUP || 'invite').toLowerCase();
  if (signup !== 'invite' && signup !== 'open') throw new ConfigError(`SIGNUP: must be invite or open, got "${env.SIGNUP}"`);
  return {
    port,
    host,
    database: parseDatabaseUrl(env.DATABASE_URL, cwd),
    publicBaseUrl,
    publicBaseUrlFromEnv: Boolean(env.PUBLIC_BASE_URL),
    dnsResolvers: parseDnsResolvers(env.DNS_RESOLVERS),
    logLevel,
    logFormat,
    shortLinkCacheBytes:
      parseIntRange('SHORT_LINK_CACHE_MB', env.SHORT_LINK_CACHE_MB, DEFAULT_SHORT_LINK_CACHE_MB, 1, 65_536) * 1024 * 1024,
    rateLimitPerMinute: parseIntRange('RATE_LIMIT_PER_MINUTE', env.RATE_LIMIT_PER_MINUTE, 600, 1, 1_000_000),
    authFailuresPerMinute: parseIntRange('AUTH_FAILURES_PER_MINUTE', env.AUTH_FAILURES_PER_MINUTE, 30, 1, 1_000_000),
    redisUrl,
    countryHeader,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    render: parseRender(env),
    reads: {
      workers: parseIntRange('READ_WORKERS', env.READ_WORKERS, 2, 0, 16),
      queue: parseIntRange('READ_QUEUE', env.READ_QUEUE, 64, 1, 10_000),
      waitMs: parseIntRange('READ_WAIT_MS', env.READ_WAIT_MS, 5_000, 100, 600_000),
    },
    signup,
    // Under the 10 s a container runtime waits before its SIGKILL.
    shutdownTimeoutMs: parseIntRange('SHUTDOWN_TIMEOUT_MS', env.SHUTDOWN_TIMEOUT_MS, 8000, 100, 3_600_000),
    connections: parseConnections(env),
    // Generous: a million codes is some 1.4 GB of database. The quota keeps one key from filling the disk.
    maxCodesPerAccount: parseIntRange('MAX_CODES_PER_ACCOUNT', env.MAX_CODES_PER_ACCOUNT, 1_000_000, 1, 1_000_000_000),
    metrics: parseMetrics(env, port, host),
    accessLog: parseBoolean('ACCESS_LOG', env.ACCESS_LOG, false),
    webhooks: {
      allowPrivate: parseBoolean('WEBHOOK_ALLOW_PRIVATE', env.WEBHOOK_ALLOW_PRIVATE, false),
      retryDelaysMs: parseRetrySchedule(env.WEBHOOK_RETRY_SCHEDULE),
      pollMs: 500,
      timeoutMs: DELIVERY_TIMEOUT_MS,
    },
  };
}

/** WEBHOOK_RETRY_SCHEDULE: seconds between attempts, comma-separated (a staging receiver, tests). */
function parseRetrySchedule(raw: string | undefined): number[] {
  if (raw === undefined || raw.trim() === '') return [...RETRY_DELAYS_MS];
  const parts = raw.split(',').map((p) => p.trim());
  const out = parts.map((p) => Number(p));
  if (parts.length > 20 || out.some((n, i) => parts[i] === '' || !Number.isFinite(n) || n < 0 || n > 7 * 86_400))
    throw new ConfigError('WEBHOOK_RETRY_SCHEDULE: must be up to 20 comma-separated numbers of seconds (0 to 604800), such as 5,300,1800');
  return out.map((n) => Math.round(n * 1000));
}

/** DNS_RESOLVERS: comma-separated IPv4/IPv6 addresses, each with an optional port (127.0.0.1:5353, [::1]:53). */
function parseDnsResolvers(raw: string | undefined): string[] | null {
  if (raw === undefined || raw.trim() === '') return null;
  const list = raw.split(',').map((v) => v.trim());
  for (const entry of list) {
    const m = /^(?:\[([0-9a-fA-F:.]+)\]|(\d+\.\d+\.\d+\.\d+)|([0-9a-fA-F:]+))(?::(\d{1,5}))?$/.exec(entry);
    const ip = m?.[1] ?? m?.[2] ?? m?.[3];
    const port = m?.[4] === undefined ? 53 : Number(m[4]);
    if (!ip || isIP(ip) === 0 || port < 1 || port > 65535 || (m?.[3] !== undefined && m[4] !== undefined))
      throw new ConfigError(
        `DNS_RESOLVERS: must be a comma-separated list of IP addresses with optional ports (127.0.0.1:5353), got "${raw}"`,
      );
  }
  return list;
}

function parseMetrics(env: NodeJS.ProcessEnv, port: number, host: string): MetricsConfig | null {
  if (env.METRICS_PORT === undefined || env.METRICS_PORT === '') {
    if (env.METRICS_HOST) throw new ConfigError('METRICS_HOST: is set, but METRICS_PORT is not (metrics are off without a port)');
    return null;
  }
  const metricsPort = parseIntRange('METRICS_PORT', env.METRICS_PORT, 0, 0, 65535);
  if (metricsPort !== 0 && metricsPort === port)
    throw new ConfigError(`METRICS_PORT: must differ from PORT (${port}); metrics have a listener of their own`);
  return { port: metricsPort, host: env.METRICS_HOST || host };
}

function parseBoolean(name: string, raw: string | undefined, def: boolean): boolean {
  if (raw === undefined || raw === '') return def;
  if (/^(true|1|yes|on)$/i.test(raw)) return true;
  if (/^(false|0|no|off)$/i.test(raw)) return false;
  throw new ConfigError(`${name}: must be true or false, got "${raw}"`);
}

function parseConnections(env: NodeJS.ProcessEnv): ConnectionConfig {
  const headersTimeoutMs = parseIntRange('HEADERS_TIMEOUT_MS', env.HEADERS_TIMEOUT_MS, 10_000, 1000, 600_000);
  const requestTimeoutMs = parseIntRange('REQUEST_TIMEOUT_MS', env.REQUEST_TIMEOUT_MS, 30_000, 1000, 3_600_000);
  const largeBodyTimeoutMs = parseIntRange('LARGE_BODY_TIMEOUT_MS', env.LARGE_BODY_TIMEOUT_MS, 300_000, 1000, 3_600_000);
  // Node refuses a headers timeout longer than the whole request's, which is the large-body one.
  if (headersTimeoutMs > largeBodyTimeoutMs)
    throw new ConfigError(
      `HEADERS_TIMEOUT_MS: must not be longer than LARGE_BODY_TIMEOUT_MS (${largeBodyTimeoutMs}), got "${headersTimeoutMs}"`,
    );
  return {
    // A browser opens about 6 per site; a few dozen people behind one NAT stay well under 256.
    maxPerAddress: parseIntRange('MAX_CONNECTIONS_PER_ADDRESS', env.MAX_CONNECTIONS_PER_ADDRESS, 256, 0, 1_000_000),
    headersTimeoutMs,
    requestTimeoutMs,
    largeBodyTimeoutMs,
  };
}
