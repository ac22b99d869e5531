// A scan as the rest of the code sees it: built once from the request's method, headers
// and address, so nothing downstream handles raw request data, and the raw IP goes no
// further than the visitor hash and the country lookup.
import { isoTimestamp } from '../stats/scan-buckets.ts';
import { classifyUserAgent, type DeviceClass } from './classify-agent.ts';
import { type CountryLookup, firstValue, type RequestHeaders } from './country.ts';
import { referrerHost } from './referrer.ts';
import { visitorHash } from './visitor-hash.ts';

export interface ScanInput {
  method: string;
  /** Node's lower-cased header map. */
  headers: RequestHeaders;
  ip: string;
  now: Date | number;
  /** Today's secret salt. */
  salt: Buffer | string;
  countryLookup: CountryLookup;
}

export interface Scan {
  /** False for HEAD, prefetches and other non-GET methods: answered, never counted. */
  record: boolean;
  isBot: boolean;
  /** ISO 8601, UTC. */
  scannedAt: string;
  /** scannedAt as epoch milliseconds, so the writer need not parse it back. */
  ms: number;
  /** UTC day, 'YYYY-MM-DD'. */
  day: string;
  device: DeviceClass;
  os: string | null;
  browser: string | null;
  country: string | null;
  referrerHost: string | null;
  visitorHash: string;
}

export function buildScan(input: ScanInput): Scan {
  const { headers } = input;
  const userAgent = firstValue(headers['user-agent']) ?? '';
  const agent = classifyUserAgent(userAgent);
  // Whole milliseconds, as the ISO time keeps them (what Date.parse of scannedAt gives back).
  const ms = Math.trunc(typeof input.now === 'number' ? input.now : input.now.getTime());
  const scannedAt = isoTimestamp(ms);
  return {
    record: input.method.toUpperCase() === 'GET' && !isPrefetch(headers),
    isBot: agent.isBot,
    scannedAt,
    ms,
    day: scannedAt.slice(0, 10), // = utcDay(now), without formatting the date twice
    device: agent.device,
    os: agent.os,
    browser: agent.browser,
    country: input.countryLookup.fromRequest({ headers, ip: input.ip }),
    referrerHost: referrerHost(firstValue(headers['referer'])),
    visitorHash: visitorHash(input.salt, input.ip, userAgent),
  };
}

/** Named factory, as the conventions call it. */
export const Scan = { fromRequest: buildScan };

/**
 * Speculative loads a person did not ask for. `Sec-Purpose` is a structured list whose
 * first item is the purpose (`prefetch`, `prefetch;prerender`); `Purpose` is its older
 * Chrome form; `X-Purpose: preview` (Safari) and `X-Moz: prefetch` (Firefox) are the
 * legacy spellings of the same thing.
 */
export function isPrefetch(headers: RequestHeaders): boolean {
  return (
    hasPurpose(headers['sec-purpose'], 'prefetch') ||
    hasPurpose(headers['purpose'], 'prefetch') ||
    hasPurpose(headers['x-purpose'], 'preview') ||
    hasPurpose(headers['x-moz'], 'prefetch')
  );
}

function hasPurpose(value: string | readonly string[] | undefined, purpose: string): boolean {
  if (value === undefined) return false;
  const values = typeof value === 'string' ? [value] : value;
  return values.some((v) => v.split(',').some((item) => item.split(';')[0]?.trim().toLowerCase() === purpose));
}
