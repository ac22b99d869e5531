// Country of a scan: a trusted proxy header when the operator configured one (the CDN
// knows better than any database), else the CC0 offline IP database that ships in an
// npm package, read in-process so a redirect never waits on the network.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Reader, type Response } from 'maxmind';
import { countryCode } from './country-codes.ts';
import { isPublicIp, normalizeIp } from './ip-address.ts';

export type RequestHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

export interface CountryRequest {
  headers: RequestHeaders;
  /** The client address as the server sees it (after any trusted-proxy resolution). */
  ip: string;
  /** Overrides the lookup's configured header for this call. */
  trustedHeader?: string;
}

export interface CountryLookup {
  fromRequest(request: CountryRequest): string | null;
}

export interface CountryLookupOptions {
  /** Header set by a trusted proxy, e.g. `cf-ipcountry`; case-insensitive. */
  trustedHeader?: string | null;
  /** `bundled` (default): the packaged database; `none`: header only. */
  database?: 'bundled' | 'none';
}

const DATABASE_FILE = '@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb';

/** One reader per process however many lookups are built (tests build many); ~8 MB. */
let bundledReader: Reader<Response> | null = null;

function loadBundledReader(): Reader<Response> {
  if (bundledReader) return bundledReader;
  const path = createRequire(import.meta.url).resolve(DATABASE_FILE);
  bundledReader = new Reader<Response>(readFileSync(path));
  return bundledReader;
}

/** Builds a lookup; the database is read synchronously here, at start-up, not on the first scan. */
export function createCountryLookup(opts: CountryLookupOptions = {}): CountryLookup {
  const reader = (opts.database ?? 'bundled') === 'bundled' ? loadBundledReader() : null;
  const configuredHeader = opts.trustedHeader?.trim().toLowerCase() || undefined;
  return {
    fromRequest({ headers, ip, trustedHeader }) {
      const name = trustedHeader?.trim().toLowerCase() || configuredHeader;
      const fromHeader = name ? countryCode(firstValue(headers[name])) : null;
      return fromHeader ?? (reader ? countryOfIp(reader, ip) : null);
    },
  };
}

function countryOfIp(reader: Reader<Response>, rawIp: string): string | null {
  const ip = normalizeIp(rawIp);
  if (ip === null || !isPublicIp(ip)) return null;
  try {
    return countryCode(storedCode(reader.get(ip)));
  } catch {
    return null; // a malformed address must never fail a redirect
  }
}

/** The country set stores `{ country_code }`, a shape outside MaxMind's own typings. */
function storedCode(record: unknown): string | undefined {
  if (typeof record !== 'object' || record === null || !('country_code' in record)) return undefined;
  return typeof record.country_code === 'string' ? record.country_code : undefined;
}

export function firstValue(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : value?.[0];
}
