// The one DNS question qrtrack asks: the TXT records at _qrtrack.<hostname>. DNS_RESOLVERS picks
// the servers (tests start one on loopback), else the system's. Nothing else about a domain is
// ever fetched.
import { Resolver } from 'node:dns/promises';
import { type TxtAnswer, txtAnswerOf, verificationName } from './domain.ts';

/** Answers "none" for a name that does not exist or holds no TXT record; "error" when DNS could not say. */
export type TxtLookup = (hostname: string, expected: string) => Promise<TxtAnswer>;

const ABSENT = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN', 'ENONAME']);

export function createTxtLookup(servers: readonly string[] | null, timeoutMs = 3000): TxtLookup {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  if (servers !== null && servers.length > 0) resolver.setServers([...servers]);
  return async (hostname, expected) => {
    try {
      return txtAnswerOf(await resolver.resolveTxt(verificationName(hostname)), expected);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (typeof code === 'string' && ABSENT.has(code)) return { found: 'none' };
      return { found: 'error', error: typeof code === 'string' ? code : 'no answer' };
    }
  };
}
