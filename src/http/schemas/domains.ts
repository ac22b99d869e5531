// TypeBox schemas of the custom domains (Account → Domains) and the instance's public address.
import { type Static, Type } from 'typebox';
import { Enum, named } from '../../domain/schema-kit.ts';

const Time = Type.String({ format: 'date-time' });
const TimeOrNull = Type.Union([Time, Type.Null()]);
const UrlOrNull = (description: string) =>
  Type.Union([Type.String({ minLength: 1, maxLength: 2048 }), Type.Null()], { rule: 'must be an http(s) URL or null', description });

export const Domain = named(
  'Domain',
  Type.Object({
    id: Type.String({ format: 'uuid' }),
    hostname: Type.String({ description: 'Lower case, e.g. qr.acme.com' }),
    status: Enum(
      ['pending', 'active', 'failed'],
      'pending: waiting for its TXT record; active: verified, serves its codes; failed: not verified in 7 days, or its record went away',
    ),
    verification: Type.Object(
      { name: Type.String({ description: '_qrtrack.<hostname>' }), value: Type.String() },
      { description: 'The DNS TXT record to create' },
    ),
    isDefault: Type.Boolean({ description: 'New codes go on it unless they name another domain (while it is active)' }),
    fallbackUrl: Type.Union([Type.String(), Type.Null()], { description: 'Where unknown and deleted codes on this domain send visitors' }),
    rootRedirect: Type.Union([Type.String(), Type.Null()], { description: 'Where https://<hostname>/ sends visitors' }),
    lastError: Type.Union([Type.String(), Type.Null()], { description: 'Why the last check did not verify it' }),
    createdAt: Time,
    verifiedAt: TimeOrNull,
    checkedAt: TimeOrNull,
  }),
);

export const DomainResponse = named('DomainResponse', Type.Object({ domain: Domain }));
export const DomainsResponse = named('DomainsResponse', Type.Object({ domains: Type.Array(Domain) }));

export const CreateDomainBody = named(
  'CreateDomainRequest',
  Type.Object(
    { hostname: Type.String({ minLength: 1, maxLength: 260, rule: 'must be a hostname such as qr.example.com' }) },
    { additionalProperties: false, rule: 'must be a JSON object' },
  ),
);

export const UpdateDomainBody = named(
  'UpdateDomainRequest',
  Type.Object(
    {
      isDefault: Type.Optional(Type.Boolean({ rule: 'must be true or false' })),
      fallbackUrl: Type.Optional(UrlOrNull('Where unknown and deleted codes on this domain send visitors; null: a 404 or 410 page')),
      rootRedirect: Type.Optional(UrlOrNull('Where the domain’s root (/) sends visitors; null: 404')),
    },
    { additionalProperties: false, rule: 'must be a JSON object' },
  ),
);

export const PublicAddress = named(
  'PublicAddress',
  Type.Object({
    url: Type.String({ description: 'The address short links are built on, e.g. https://qr.example.com' }),
    source: Enum(
      ['env', 'setup', 'default'],
      'env: PUBLIC_BASE_URL sets it; setup: stored (first run or an owner); default: http://localhost:PORT, nothing set',
    ),
    warning: Type.Union([Type.String(), Type.Null()], { description: 'Set while phones cannot reach the address (loopback or private)' }),
    previous: Type.Array(Type.String(), { description: 'Addresses in force before, newest first: their short links keep answering' }),
  }),
);

export const PublicAddressBody = named(
  'PublicAddressRequest',
  Type.Object(
    { publicBaseUrl: Type.String({ minLength: 1, maxLength: 2048, rule: 'must be an address such as https://qr.example.com' }) },
    { additionalProperties: false, rule: 'must be a JSON object' },
  ),
);
export const PublicAddressResponse = named('PublicAddressResponse', Type.Object({ publicAddress: PublicAddress }));

export type DomainView = Static<typeof Domain>;
export type PublicAddressView = Static<typeof PublicAddress>;
