// TypeBox schemas of QR items: create, update, preview, the item and the list.
// Their siblings: common.ts, bulk.ts, tags.ts, stats.ts, designs.ts, account.ts. The same objects
// validate requests and generate the OpenAPI document, so the document cannot lie.
// A schema may carry `rule`: the sentence used in the 400 message when it fails.
// Schemas wrapped in `named(...)` become components of the OpenAPI document under that name
// (the spec's names where it has them: QrItem, QrDesign, CreateQrRequest, Error).
import { type TSchema, Type } from 'typebox';
import { DesignPatchSchema, QrDesignSchema, designOptions } from '../../domain/design/design-schema.ts';
import { CONTENT_TYPES, KIND_OF_FIELD, PAYLOAD_MAX_LENGTH, TYPED_FIELDS, WIFI_ENCRYPTIONS } from '../../domain/payload/index.ts';
import { Between, Enum, named, optionalAll, Text } from '../../domain/schema-kit.ts';
import { SPARKLINE_DAYS } from '../../domain/stats/sparklines.ts';
import { TAG_MAX_LENGTH, TAGS_PER_ITEM } from '../../domain/qr-items/tags.ts';
import { TITLE_MAX } from '../../domain/qr-items/qr-title.ts';
import { HEADING_MAX } from '../../domain/qr-items/public-heading.ts';
import { TagText } from './tags.ts';
import { FallbackUrls, RULE_LIMITS, Rule, Rules, Utm } from '../../domain/dynamic/rules-schema.ts';
import { ITEM_STATUSES, QrStatus, ScanCapBasis, lifecycleProperties } from '../../domain/dynamic/lifecycle.ts';
import { CODE_PASSWORD_MAX, CODE_PASSWORD_MIN } from '../../domain/dynamic/code-password.ts';

/** A typed field longer than a whole payload could never fit in one. */
const TYPED_FIELD_MAX = PAYLOAD_MAX_LENGTH;

const ContentType = named('ContentType', Enum(CONTENT_TYPES));

const WifiEncryption = named('WifiEncryption', Enum(WIFI_ENCRYPTIONS));
type TypedFieldSchemas = { [F in (typeof TYPED_FIELDS)[number]]: F extends 'wifiEnc' ? typeof WifiEncryption : ReturnType<typeof Text> };
/** One property per typed field; the first field of each kind says which contentType it is for. */
const typedFieldProperties = Object.fromEntries(
  TYPED_FIELDS.map((f, i) => {
    const firstOfKind = i === 0 || KIND_OF_FIELD[TYPED_FIELDS[i - 1]!] !== KIND_OF_FIELD[f];
    return [f, f === 'wifiEnc' ? WifiEncryption : Text(TYPED_FIELD_MAX, firstOfKind ? `For contentType ${KIND_OF_FIELD[f]}` : undefined)];
  }),
) as TypedFieldSchemas;

/** `schema` or null (null clears the stored value); `rule` is the 400's sentence for both. */
const OrNull = <T extends TSchema>(schema: T, rule: string, description: string) =>
  Type.Union([schema, Type.Null()], { rule, description });

/** Lifecycle, routing and password (docs/dynamic-codes.md). */
const dynamicProperties = {
  ...lifecycleProperties,
  fallbackUrls: OrNull(
    FallbackUrls,
    'must be an object of http(s) URLs or null',
    'Where a scheduled, expired or capped code sends visitors',
  ),
  rules: OrNull(
    Rules,
    `must be an array of at most 25 rules or null`,
    `Smart redirects, first match wins (url, whatsapp, email); at most ${RULE_LIMITS.totalValues} condition values and ` +
      `${RULE_LIMITS.totalValueChars} characters of values and keys in all`,
  ),
  forwardQuery: Type.Boolean({
    rule: 'must be true or false',
    description: "Merge the visitor's query string onto the destination (default true)",
  }),
  utm: OrNull(Utm, 'must be an object of utm fields or null', 'Fixed utm_* parameters added to the destination'),
  password: OrNull(
    Type.String({ minLength: CODE_PASSWORD_MIN, maxLength: CODE_PASSWORD_MAX }),
    `must be a string of ${CODE_PASSWORD_MIN} to ${CODE_PASSWORD_MAX} characters or null`,
    'Write-only: visitors must enter it before the code opens; stored as an argon2id hash; null removes it',
  ),
};

const contentProperties = {
  tracking: Type.Boolean({ description: 'Must be true or omitted', rule: 'must be a boolean' }),
  contentType: ContentType,
  payload: Text(PAYLOAD_MAX_LENGTH, 'Raw content; when absent it is assembled from contentType and the typed fields'),
  ...typedFieldProperties,
  design: DesignPatchSchema,
  ...designOptions,
  tags: Type.Array(TagText(), {
    maxItems: TAGS_PER_ITEM,
    rule: `must be an array of at most ${TAGS_PER_ITEM} tags of at most ${TAG_MAX_LENGTH} characters`,
    description: 'Tags of the code; on PATCH the list replaces the stored one',
  }),
  ...dynamicProperties,
  domain: OrNull(
    Type.String({ minLength: 1, maxLength: 253 }),
    'must be a hostname or null',
    "An active domain of the account (its hostname, e.g. qr.acme.com) the short link lives on; null: the instance's address. On create the default is the account's default domain, else the instance's address",
  ),
};

/** Optional on create and update; null (or an empty string) clears it. */
const Heading = OrNull(
  Text(HEADING_MAX),
  `must be a string of at most ${HEADING_MAX} characters or null`,
  'What the landing page of a wifi, vcard or text code shows visitors as its heading; null or absent: a neutral heading by kind. The title is never shown to visitors',
);

export const CreateQrBody = named(
  'CreateQrRequest',
  Type.Object(
    { title: Text(TITLE_MAX), ...optionalAll({ heading: Heading, ...contentProperties }) },
    { additionalProperties: false, rule: 'must be a JSON object' },
  ),
);

export const UpdateQrBody = named(
  'UpdateQrRequest',
  Type.Object(
    { ...optionalAll({ title: Text(TITLE_MAX), heading: Heading, active: Type.Boolean(), ...contentProperties }) },
    { additionalProperties: false, rule: 'must be a JSON object' },
  ),
);

export const PreviewBody = named(
  'PreviewRequest',
  Type.Object(
    {
      ...optionalAll({
        data: Type.String({
          minLength: 1,
          maxLength: PAYLOAD_MAX_LENGTH,
          rule: `must be a string of 1 to ${PAYLOAD_MAX_LENGTH} characters`,
          description: 'Text to encode; default a sample short link',
        }),
        design: DesignPatchSchema,
        ...designOptions,
      }),
    },
    { additionalProperties: false, rule: 'must be a JSON object' },
  ),
);

export const QrItem = named(
  'QrItem',
  Type.Object({
    id: Type.String({ format: 'uuid' }),
    title: Type.String({ description: "The account's own name for the code (list, file names); never shown to visitors" }),
    heading: Type.Union([Type.String(), Type.Null()], {
      description: 'What its landing page shows visitors as its heading; null: a neutral heading by kind',
    }),
    code: Type.String({ description: '7 characters [A-Za-z0-9]' }),
    contentType: ContentType,
    payload: Type.String(),
    active: Type.Boolean(),
    design: QrDesignSchema,
    shortUrl: Type.String({ format: 'uri' }),
    domain: Type.Union([Type.String(), Type.Null()], {
      description: "The account's domain the short link lives on (hostname); null: the instance's address",
    }),
    scanCount: Type.Integer(),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    tags: Type.Array(Type.String(), { description: 'Sorted' }),
    status: QrStatus,
    activatesAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    maxScans: Type.Union([Type.Integer(), Type.Null()]),
    scanCapBasis: ScanCapBasis,
    capCount: Type.Integer({ description: 'Scans admitted under the cap so far' }),
    fallbackUrls: FallbackUrls,
    rules: Type.Array(Rule),
    forwardQuery: Type.Boolean(),
    utm: Utm,
    hasPassword: Type.Boolean(),
  }),
);

export const ItemResponse = named('QrItemResponse', Type.Object({ item: QrItem }, { description: 'The item' }));
export const ItemWithWarningsResponse = named(
  'QrItemWithWarnings',
  Type.Object(
    {
      item: QrItem,
      warnings: Type.Array(Type.String(), { description: 'Design problems that may keep phones from scanning, and ignored fields' }),
    },
    { description: 'The item as stored, and warnings in plain sentences (empty when all is well)' },
  ),
);

export const ListQuery = Type.Object(
  {
    limit: Type.Optional(
      Between(
        1,
        200,
        true,
        'Page size, default 50; a page stops short of it once its designs hold 4 MiB (large custom logos), or after reading 100,000 codes for a q without three letters or digits in a row, or any q with a tag (the page may then be empty); nextCursor goes on from there',
      ),
    ),
    cursor: Type.Optional(Type.String({ maxLength: 200, rule: 'must be a cursor returned as nextCursor' })),
    active: Type.Optional(Type.Boolean({ rule: 'must be true or false' })),
    contentType: Type.Optional(ContentType),
    // Unnamed: the query string's schema is rewritten as it is documented (its description dropped).
    status: Type.Optional(Enum(ITEM_STATUSES, 'Only codes with this status, as computed now')),
    q: Type.Optional(Text(200, 'Case-insensitive substring of title or payload')),
    tag: Type.Optional(TagText('Only codes with this tag (exact name)')),
    include: Type.Optional(
      Enum(['sparkline'] as const, `sparkline: also answer each code's human scans per day over the last ${SPARKLINE_DAYS} days`),
    ),
    tz: Type.Optional(
      Type.String({
        maxLength: 64,
        rule: 'must be an IANA time zone such as Europe/Berlin',
        description: "Where the sparklines' days start (IANA time zone, default UTC)",
      }),
    ),
  },
  { additionalProperties: false },
);

export const Sparklines = named(
  'Sparklines',
  Type.Object(
    {
      days: Type.Integer({ description: `Always ${SPARKLINE_DAYS}` }),
      tz: Type.String(),
      from: Type.String({ format: 'date' }),
      to: Type.String({ format: 'date' }),
      series: Type.Array(
        named(
          'Sparkline',
          Type.Object({
            id: Type.String({ format: 'uuid' }),
            scans: Type.Array(Type.Integer({ minimum: 0 }), {
              description: 'Human scans per local day, oldest first, zero-filled; each equals that day in /qr/{id}/stats',
            }),
          }),
        ),
        { description: 'One per item of the page, in the same order' },
      ),
    },
    { description: 'Present when include=sparkline was asked for' },
  ),
);

export const ListResponse = named(
  'QrItemList',
  Type.Object(
    {
      items: Type.Array(QrItem),
      nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor for the next page; null on the last page' }),
      sparklines: Type.Optional(Sparklines),
    },
    { description: 'One page of items, newest first' },
  ),
);
