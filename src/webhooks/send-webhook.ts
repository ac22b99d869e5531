// One HTTP attempt of a webhook: a POST of the signed body, a 2xx within the time-out is success.
// The host is resolved here, at each attempt, and every address it gives is checked (a name that
// resolved to a public address when saved may point inside the network now: DNS rebinding); the
// connection goes to an address that was checked, never to a second lookup's. Redirects are not
// followed: a 3xx is a failure, so a receiver cannot bounce a delivery to an address we refuse.
// At most RESPONSE_EXCERPT_BYTES of the answer are read.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { hostOf, isPrivateAddress } from '../domain/webhooks/destination.ts';
import { RESPONSE_EXCERPT_BYTES } from '../domain/webhooks/retry-policy.ts';

export interface SendOptions {
  allowPrivate: boolean;
  timeoutMs: number;
}

export interface SendResult {
  ok: boolean;
  /** The receiver's status; null when none came. */
  status: number | null;
  /** Why no answer counts (a time-out, a refused destination, a connection error); null on an answer. */
  error: string | null;
  durationMs: number;
  /** At most 1 KiB of the answer's body (UTF-8, cut). */
  response: string | null;
}

class RefusedDestination extends Error {}

/** dns.lookup, refusing private addresses unless allowed; answers the checked addresses only. */
function checkedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family ?? 0, hints: options.hints }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as dns.LookupAddress[];
      if (list.length === 0) return callback(new Error(`${hostname} has no address`), '', 0);
      if (!allowPrivate) {
        const bad = list.find((a) => isPrivateAddress(a.address));
        if (bad)
          return callback(
            new RefusedDestination(`${hostname} resolves to ${bad.address}, a private, loopback or link-local address`),
            '',
            0,
          );
      }
      const all = (options as { all?: boolean }).all === true;
      if (all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      const first = list[0] as dns.LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

export function sendWebhook(
  rawUrl: string,
  headers: Record<string, string>,
  body: string | Uint8Array,
  options: SendOptions,
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const fail = (error: string): SendResult => ({ ok: false, status: null, error, durationMs: elapsed(), response: null });
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return Promise.resolve(fail('the URL is not valid'));
  }
  const secure = url.protocol === 'https:';
  if (!secure && !(url.protocol === 'http:' && options.allowPrivate)) return Promise.resolve(fail('refused: only https URLs are allowed'));
  const host = hostOf(url);
  if (isIP(host) !== 0 && !options.allowPrivate && isPrivateAddress(host))
    return Promise.resolve(fail(`refused: ${host} is a private, loopback or link-local address`));
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const requestOptions: https.RequestOptions = {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'qrtrack-webhooks/1',
      },
      lookup: checkedLookup(options.allowPrivate),
      // A fresh connection each time: a pooled one could outlive the address check.
      agent: false,
    };
    const req = (secure ? https : http).request(url, requestOptions, (res) => {
      const status = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () => {
        const response = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8');
        const ok = status >= 200 && status < 300;
        done({
          ok,
          status,
          error: ok ? null : status >= 300 && status < 400 ? 'redirects are not followed' : null,
          durationMs: elapsed(),
          response,
        });
        res.destroy();
      };
      res.on('data', (chunk: Buffer) => {
        if (size < RESPONSE_EXCERPT_BYTES) chunks.push(chunk);
        size += chunk.length;
        if (size >= RESPONSE_EXCERPT_BYTES) finish();
      });
      res.on('end', finish);
      res.on('error', finish);
    });
    const timer = setTimeout(() => {
      done(fail(`no answer within ${Math.round(options.timeoutMs / 1000)} s`));
      req.destroy();
    }, options.timeoutMs);
    req.on('error', (err) => {
      done(fail(err instanceof RefusedDestination ? `refused: ${err.message}` : `could not connect: ${err.message}`));
    });
    req.end(body);
  });
}
