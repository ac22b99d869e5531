// Where short links live, held in memory so a scan asks no query: the instance's public address
// (the stored one, or PUBLIC_BASE_URL over it), the addresses it had before (their printed codes
// keep answering), and the accounts' domains by hostname. Refreshed when this process changes
// them, and on a timer for the changes other processes make (PostgreSQL).
import { ConflictError } from '../../domain/errors.ts';
import type { Domain } from '../../domain/domains/domain.ts';
import { type AddressSource, addressWarning } from '../../domain/domains/public-address.ts';
import type { LinkAddressTable, LinkAddresses } from '../../domain/qr-items/short-code.ts';
import type { Db } from '../database.ts';
import { DomainsRepository } from './domains-repository.ts';
import { InstanceSettingsRepository, PREVIOUS_ADDRESSES_KEY, PUBLIC_ADDRESS_KEY } from './instance-settings-repository.ts';

/** Earlier addresses kept answering: enough for any real history of moves. */
const PREVIOUS_KEPT = 20;
/** Distinct Host headers remembered; past it the memo starts again (a flood of made-up hosts). */
const HOST_MEMO = 1000;

/** What a custom domain's host answers with beyond its codes. */
export interface DomainRoute {
  id: string;
  accountId: string;
  hostname: string;
  fallbackUrl: string | null;
  rootRedirect: string | null;
}

/** A request's Host: the instance's own, an active domain of an account, or null (unknown: 404). */
export type HostRoute = { kind: 'instance' } | { kind: 'domain'; domain: DomainRoute };

const INSTANCE: HostRoute = Object.freeze({ kind: 'instance' });

export interface PublicAddressView {
  url: string;
  source: AddressSource;
  /** Why phones cannot open codes on it, or null. */
  warning: string | null;
  /** Addresses in force before, newest first; their short links keep answering. */
  previous: string[];
}

export class Addresses implements LinkAddresses {
  private url: string;
  private source: AddressSource;
  private previous: string[] = [];
  private instanceHosts = new Set<string>();
  private readonly domainsById = new Map<string, Domain>();
  private readonly activeByHost = new Map<string, DomainRoute>();
  private readonly hostMemo = new Map<string, HostRoute | null>();

  constructor(
    private readonly settings: InstanceSettingsRepository,
    private readonly domains: DomainsRepository,
    /** PUBLIC_BASE_URL or the default (http://localhost:PORT), and whether it came from the environment. */
    private readonly configured: { url: string; fromEnv: boolean },
  ) {
    this.url = configured.url;
    this.source = configured.fromEnv ? 'env' : 'default';
    this.rebuildHosts();
  }

  /** Reads the stored address and every domain; call at start and whenever another process may have changed them. */
  async refresh(): Promise<void> {
    const [stored, previous, domains] = await Promise.all([
      this.settings.get(PUBLIC_ADDRESS_KEY),
      this.settings.get(PREVIOUS_ADDRESSES_KEY),
      this.domains.all(),
    ]);
    if (this.configured.fromEnv) {
      this.url = this.configured.url;
      this.source = 'env';
    } else {
      this.url = stored ?? this.configured.url;
      this.source = stored === null ? 'default' : 'setup';
    }
    this.previous = previous === null ? [] : (JSON.parse(previous) as string[]);
    this.domainsById.clear();
    this.activeByHost.clear();
    for (const d of domains) {
      this.domainsById.set(d.id, d);
      if (d.status === 'active')
        this.activeByHost.set(d.hostname, {
          id: d.id,
          accountId: d.accountId,
          hostname: d.hostname,
          fallbackUrl: d.fallbackUrl,
          rootRedirect: d.rootRedirect,
        });
    }
    this.rebuildHosts();
  }

  /** The address short links are built on now. */
  publicUrl(): string {
    return this.url;
  }

  publicAddress(): PublicAddressView {
    return { url: this.url, source: this.source, warning: addressWarning(this.url), previous: [...this.previous] };
  }

  /** Whether the instance is reached over https: cookies are then Secure and answers carry HSTS. */
  isHttps(): boolean {
    return this.url.startsWith('https:');
  }

  /**
   * Stores a new public address (first run, or an owner's change). The one it replaces joins
   * the previous addresses, which keep answering for the codes printed with them.
   */
  async changePublicUrl(url: string): Promise<void> {
    if (this.configured.fromEnv)
      throw new ConflictError(`publicBaseUrl: PUBLIC_BASE_URL sets the address (${this.configured.url}); change it there and restart`);
    await this.refresh();
    if (url === this.url && this.source !== 'default') return;
    // The new address is no longer "previous"; the one it replaces is, first.
    const previous = [...new Set([this.url, ...this.previous])].filter((u) => u !== url).slice(0, PREVIOUS_KEPT);
    await this.settings.set(PREVIOUS_ADDRESSES_KEY, JSON.stringify(previous));
    await this.settings.set(PUBLIC_ADDRESS_KEY, url);
    await this.refresh();
  }

  /** What a request's Host header reaches. No query: a memo of a Map lookup. */
  route(hostHeader: string | undefined): HostRoute | null {
    if (hostHeader === undefined || hostHeader === '') return INSTANCE;
    const memo = this.hostMemo.get(hostHeader);
    if (memo !== undefined) return memo;
    const host = hostnameOf(hostHeader);
    // The instance's own names, any IP literal (no domain is verified for one: a proxy that
    // forwards to 127.0.0.1:3000 without Host still works) and loopback names.
    const route: HostRoute | null =
      this.instanceHosts.has(host) || isLiteralOrLoopback(host)
        ? INSTANCE
        : this.activeByHost.has(host)
          ? { kind: 'domain', domain: this.activeByHost.get(host) as DomainRoute }
          : null;
    if (this.hostMemo.size >= HOST_MEMO) this.hostMemo.clear();
    this.hostMemo.set(hostHeader, route);
    return route;
  }

  /** Whether a hostname may be claimed as a domain: never the instance's own. */
  isInstanceHost(hostname: string): boolean {
    return this.instanceHosts.has(hostname);
  }

  baseFor(domainId: string | null): string {
    const domain = domainId === null ? undefined : this.domainsById.get(domainId);
    if (domain === undefined) return this.url;
    // A domain is served the way the instance is (https behind the proxy that issues its certificate).
    return `${new URL(this.url).protocol}//${domain.hostname}`;
  }

  /** The same as plain data, for a read worker. */
  table(): LinkAddressTable {
    const domains: LinkAddressTable['domains'] = {};
    for (const id of this.domainsById.keys()) domains[id] = { base: this.baseFor(id), hostname: this.hostnameOf(id) as string };
    return { publicBaseUrl: this.url, domains };
  }

  hostnameOf(domainId: string | null): string | null {
    return domainId === null ? null : (this.domainsById.get(domainId)?.hostname ?? null);
  }

  /** For GET /tls/ask: the instance's own hostnames and the active domains. */
  mayIssueCertificateFor(hostname: string): boolean {
    const host = hostname.toLowerCase().replace(/\.$/, '');
    return this.instanceHosts.has(host) || this.activeByHost.has(host);
  }

  private rebuildHosts(): void {
    this.instanceHosts = new Set([this.url, this.configured.url, ...this.previous].map((u) => new URL(u).hostname.replace(/\.$/, '')));
    this.hostMemo.clear();
  }
}

/** The hostname of a Host header: lower case, without port or trailing dot; IPv6 keeps its brackets. */
function hostnameOf(header: string): string {
  const h = header.toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    return end === -1 ? h : h.slice(0, end + 1);
  }
  const colon = h.indexOf(':');
  return (colon === -1 ? h : h.slice(0, colon)).replace(/\.$/, '');
}

function isLiteralOrLoopback(host: string): boolean {
  return host.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(host) || host === 'localhost' || host.endsWith('.localhost');
}

/** The addresses of an instance, read (the CLI's commands and the server's start). */
export async function loadAddresses(
  settings: InstanceSettingsRepository,
  domains: DomainsRepository,
  config: { publicBaseUrl: string; publicBaseUrlFromEnv: boolean },
): Promise<Addresses> {
  const addresses = new Addresses(settings, domains, { url: config.publicBaseUrl, fromEnv: config.publicBaseUrlFromEnv });
  await addresses.refresh();
  return addresses;
}

/** The same for a command that holds only an open database. */
export function addressesOf(db: Db, config: { publicBaseUrl: string; publicBaseUrlFromEnv: boolean }): Promise<Addresses> {
  return loadAddresses(new InstanceSettingsRepository(db), new DomainsRepository(db), config);
}
