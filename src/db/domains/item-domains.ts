// Which domain a code's short link lives on: the one a request names (an active domain of the
// code's account), else on create the account's default domain, else the instance's address.
import { normaliseHostname } from '../../domain/domains/domain.ts';
import { ValidationError } from '../../domain/errors.ts';
import type { DomainsRepository } from './domains-repository.ts';

/** The domain id for a new code; null: the instance's address. */
export async function domainForNewCode(
  domains: DomainsRepository,
  accountId: string,
  requested: string | null | undefined,
): Promise<string | null> {
  if (requested === undefined) return (await domains.activeDefault(accountId))?.id ?? null;
  return domainNamed(domains, accountId, requested);
}

/** The domain id a change asks for; undefined: unchanged. */
export async function domainForChange(
  domains: DomainsRepository,
  accountId: string,
  requested: string | null | undefined,
): Promise<string | null | undefined> {
  return requested === undefined ? undefined : domainNamed(domains, accountId, requested);
}

async function domainNamed(domains: DomainsRepository, accountId: string, requested: string | null): Promise<string | null> {
  if (requested === null) return null;
  const hostname = normaliseHostname(requested, 'domain');
  const domain = await domains.findActive(accountId, hostname);
  if (domain === null) throw new ValidationError(`domain: ${hostname} is not a verified domain of this account (see GET /v1/domains)`);
  return domain.id;
}
