// TypeBox schemas for every request and response of the v1 API. The same objects
// validate requests and generate the OpenAPI document, so the document cannot lie.
// A schema may carry `rule`: the sentence used in the 400 message when it fails.
// Schemas wrapped in `named(...)` become components of the OpenAPI document under that name
// (the spec's names where it has them: QrItem, QrDesign, CreateQrRequest, Error).
import { Type } from 'typebox';
import { DesignPatchSchema, QrDesignSchema, designOptions } from '../../domain/design/design-schema.ts';
import { CONTENT_TYPES, KIND_OF_FIELD, PAYLOAD_MAX_LENGTH, TYPED_FIELDS, WIFI_ENCRYPTIONS } from '../../domain/payload/index.ts';
import { BATCH_MAX_ITEMS } from '../../domain/qr-items/qr-batch.ts';
import { BULK_ACTIONS, BULK_MAX_IDS } from '../../domain/qr-items/qr-bulk.ts';
import { Between, Enum, named, optionalAll, Text } from '../../domain/schema-kit.ts';
import { SPARKLINE_DAYS } from '../../domain/stats/sparklines.ts';
import { TAG_MAX_LENGTH, TAGS_PER_ITEM } from '../../domain/qr-items/tags.ts';
import { TITLE_MAX } from '../../domain/qr-items/qr-title.ts';

/** A typed field longer than a whole payload could never fit in one. */
const TYPED_FIELD_MAX = PAYLOAD_MAX_LENGTH;

/**
 * A tag as sent: its 64 characters are counted after trimming and NFC (normalizeTag), so the
 * schema only bounds the raw string, with room for spaces around it and decomposed accents.
 */
const TagText = (description?: string) =>
  Type.String({ maxLength: TAG_MAX_LENGTH * 4, rule: `must be a string of at most ${TAG_MAX_LENGTH} characters`, description });

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
};

export const CreateQrBody = named(
  'CreateQrRequest',
  Type.Object(
    { title: Text(TITLE_MAX), ...optionalAll(contentProperties) },
    { additionalProperties: false, rule: 'must be a JSON object' },
  ),
);

export const UpdateQrBody = named(
  'UpdateQrRequest',
  Type.Object(
    { ...optionalAll({ title: Text(TITLE_MAX), active: Type.Boolean(), ...contentProperties }) },
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

export const IdParams = Type.Object({ id: Type.String({ format: 'uuid', rule: 'must be a UUID' }) }, { additionalProperties: false });

export const QrItem = named(
  'QrItem',
  Type.Object({
    id: Type.String({ format: 'uuid' }),
    title: Type.String(),
    code: Type.String({ description: '7 characters [A-Za-z0-9]' }),
    contentType: ContentType,
    payload: Type.String(),
    active: Type.Boolean(),
    design: QrDesignSchema,
    shortUrl: Type.String({ format: 'uri' }),
    scanCount: Type.Integer(),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    tags: Type.Array(Type.String(), { description: 'Sorted' }),
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

export const OkResponse = named('OkResponse', Type.Object({ ok: Type.Boolean() }, { description: 'Done' }));
export const ErrorResponse = named(
  'Error',
  Type.Object({ error: Type.String({ description: 'Names the field and the rule for invalid input' }) }),
);

/** `?account=` on the routes the web app links to (images, CSV): what the X-Qrtrack-Account header says for its other requests. */
export const TabAccountQuery = Type.Optional(
  Type.String({
    pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
    rule: 'must be an account id',
    description:
      'With a session only: the account the linking page works in (another tab may have switched the session to another account)',
  }),
);

export const StatsQuery = Type.Object(
  {
    days: Type.Optional(Between(1, 90, true, 'Days in the series, default 14')),
    tz: Type.Optional(
      Type.String({ maxLength: 64, rule: 'must be an IANA time zone such as Europe/Berlin', description: 'IANA time zone, default UTC' }),
    ),
  },
  { additionalProperties: false },
);

const Count = Type.Integer({ minimum: 0 });
const Breakdown = Type.Array(named('BreakdownRow', Type.Object({ value: Type.String(), scans: Count })));

export const StatsResponse = named(
  'QrStats',
  Type.Object(
    {
      id: Type.String({ format: 'uuid' }),
      code: Type.String(),
      days: Type.Integer(),
      tz: Type.String(),
      from: Type.String({ format: 'date' }),
      to: Type.String({ format: 'date' }),
      totals: named(
        'StatsTotals',
        Type.Object({
          scans: Count,
          uniqueScans: Count,
          scansInRange: Count,
          uniqueScansInRange: Count,
          botScans: Count,
          firstScanAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
          lastScanAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
        }),
      ),
      daily: Type.Array(named('StatsDay', Type.Object({ date: Type.String({ format: 'date' }), scans: Count, uniqueScans: Count }))),
      recent: Type.Array(
        named(
          'RecentScan',
          Type.Object({
            scannedAt: Type.String({ format: 'date-time' }),
            device: Type.String(),
            os: Type.Union([Type.String(), Type.Null()]),
            browser: Type.Union([Type.String(), Type.Null()]),
            country: Type.Union([Type.String(), Type.Null()]),
            referrer: Type.Union([Type.String(), Type.Null()]),
          }),
        ),
      ),
      breakdown: named(
        'StatsBreakdown',
        Type.Object(
          {
            device: Breakdown,
            os: Breakdown,
            browser: Breakdown,
            country: Breakdown,
            referrer: Breakdown,
          },
          {
            description:
              'Per dimension, largest first; at most 50 entries, the values past the 49th summed as one entry "(other)", so each adds up to the scans in range',
          },
        ),
      ),
    },
    { description: 'Totals, a zero-filled daily series, the 20 newest human scans and breakdowns of the range' },
  ),
);

/** An error answer with a sentence saying when it happens (shown in the document and /docs). */
export const errorAnswer = (description: string) => ({ description, content: { 'application/json': { schema: ErrorResponse } } });

/** Responses every authenticated route can give. */
export const authErrors = {
  400: errorAnswer('Invalid input; the message names the field and the rule'),
  401: errorAnswer('Missing, unknown or revoked API key'),
  403: errorAnswer('The key lacks the scope this operation needs'),
  429: errorAnswer('Rate limited; Retry-After says when to try again'),
};
export const notFoundAnswer = errorAnswer('No such item in this account (deleted, or never existed)');
/** Checking a logo or drawing an image waits for the render pool; a full queue answers 503. */
export const renderBusyAnswer = errorAnswer('The render queue is full; retry after Retry-After seconds');
/** Body errors of the routes that take JSON. */
export const bodyErrors = {
  413: errorAnswer('Body larger than 1 MiB'),
  415: errorAnswer('Body is not application/json, or declares a charset other than UTF-8'),
};

// Bulk create.
export const BatchCreateBody = named(
  'BatchCreateRequest',
  Type.Object(
    {
      items: Type.Array(CreateQrBody, {
        minItems: 1,
        maxItems: BATCH_MAX_ITEMS,
        rule: `must be an array of 1 to ${BATCH_MAX_ITEMS} create requests`,
        description: 'Each item takes the fields of POST /v1/qr',
      }),
    },
    { additionalProperties: false, rule: 'must be a JSON object' },
  ),
);

export const BatchCreateResponse = named(
  'BatchCreateResponse',
  Type.Object({
    items: Type.Array(ItemWithWarningsResponse, { description: 'One answer per item, in the order sent' }),
  }),
);

// Bulk pause, resume and delete.
export const BulkActionBody = named(
  'BulkActionRequest',
  Type.Object(
    {
      action: Enum(BULK_ACTIONS, 'delete cannot be undone: each short link then answers 410'),
      ids: Type.Array(Type.String({ format: 'uuid', rule: 'must be a UUID' }), {
        minItems: 1,
        maxItems: BULK_MAX_IDS,
        rule: `must be an array of 1 to ${BULK_MAX_IDS} UUIDs`,
        description: 'The codes to change; duplicates count once',
      }),
    },
    { additionalProperties: false, rule: 'must be a JSON object' },
  ),
);

export const BulkActionResponse = named(
  'BulkActionResponse',
  Type.Object({
    done: Type.Array(named('QrItemRef', Type.Object({ id: Type.String({ format: 'uuid' }), code: Type.String() })), {
      description: 'The codes changed, in the order sent',
    }),
    notFound: Type.Array(Type.String({ format: 'uuid' }), {
      description: 'Ids that are no live code of this account; nothing was done to them',
    }),
  }),
);

// Tags.
export const TagParams = Type.Object(
  { name: Text(TAG_MAX_LENGTH * 4, 'Tag name (URL-encoded in the path)') },
  { additionalProperties: false },
);
export const TagListResponse = named(
  'TagList',
  Type.Object({
    tags: Type.Array(Type.Object({ name: Type.String(), count: Type.Integer({ minimum: 0, description: 'Codes with this tag' }) })),
  }),
);
export const RenameTagBody = named(
  'RenameTagRequest',
  Type.Object(
    { name: TagText('The new name; a code that has both keeps one') },
    { additionalProperties: false, rule: 'must be a JSON object' },
  ),
);
