// The client's address behind reverse proxies. X-Forwarded-For lists the addresses a request
// passed through, each proxy appending the one it saw; only the entries our own proxies
// appended can be believed, since a client writes the rest itself. So the client is the
// address just before the trusted hops: with one proxy (TRUST_PROXY=true) the right-most
// entry. (Taking the left-most, as before, let any client pick its address and slip past
// the per-address limits.) Fastify and the short links' fast path both ask this module.
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { TrustProxy } from '../../config.ts';

export type { TrustProxy };

export type TrustFunction = (address: string, hop: number) => boolean;

export function trustFunction(trust: TrustProxy): TrustFunction | false {
  if (trust === false) return false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return proxyAddr.compile(trust);
}

export function clientAddress(req: IncomingMessage, trust: TrustFunction | false): string {
  if (trust === false) return req.socket.remoteAddress ?? '';
  return proxyAddr(req, trust);
}
