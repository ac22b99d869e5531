// TypeBox schemas of the webhooks API (product-decisions §12, docs/webhooks.md).
import { type Static, Type } from 'typebox';
import { Enum, named } from '../../domain/schema-kit.ts';
import { DESCRIPTION_MAX, FILTER_ITEM_IDS_MAX, FILTER_TAGS_MAX, URL_MAX, WEBHOOK_EVENTS } from '../../domain/webhooks/webhook-events.ts';

const Time = Type.String({ format: 'date-time' });
const TimeOrNull = Type.Union([Time, Type.Null()]);

const EventName = Enum(WEBHOOK_EVENTS, 'An event an endpoint can subscribe to');

const Events = Type.Array(EventName, {
  minItems: 1,
  maxItems: WEBHOOK_EVENTS.length,
  uniqueItems: true,
  rule: `must list one or more of ${WEBHOOK_EVENTS.join(', ')}, each once`,
  description: 'The events sent to the endpoint',
});

export const WebhookFilter = named(
  'WebhookFilter',
  Type.Object(
    {
      tags: Type.Optional(
        Type.Array(Type.String({ minLength: 1, maxLength: 50 }), {
          maxItems: FILTER_TAGS_MAX,
          rule: `must be a list of at most ${FILTER_TAGS_MAX} tags`,
          description: 'Only codes carrying one of these tags (empty or absent: any code)',
        }),
      ),
      itemIds: Type.Optional(
        Type.Array(Type.String({ format: 'uuid', rule: 'must be a code id' }), {
          maxItems: FILTER_ITEM_IDS_MAX,
          rule: `must be a list of at most ${FILTER_ITEM_IDS_MAX} code ids`,
          description: 'Only these codes (empty or absent: any code)',
        }),
      ),
    },
    { additionalProperties: false, rule: 'must be an object with tags and/or itemIds' },
  ),
);

const Url = Type.String({ minLength: 1, maxLength: URL_MAX, rule: 'must be an https URL', description: 'Where events are POSTed (https)' });
const Description = Type.String({ maxLength: DESCRIPTION_MAX, rule: `must be a string of at most ${DESCRIPTION_MAX} characters` });
const IncludeBots = Type.Boolean({
  rule: 'must be true or false',
  description: 'scan.created also for bots and link previews (default false: human scans only)',
});

export const WebhookEndpoint = named(
  'WebhookEndpoint',
  Type.Object({
    id: Type.String({ format: 'uuid' }),
    url: Type.String(),
    description: Type.String(),
    events: Type.Array(EventName),
    filter: Type.Object({ tags: Type.Array(Type.String()), itemIds: Type.Array(Type.String()) }),
    includeBots: Type.Boolean(),
    enabled: Type.Boolean({ description: 'False once disabled: by a member, by a 410 from the receiver, or after failing deliveries' }),
    disabledAt: TimeOrNull,
    disabledReason: Type.Union([Enum(['manual', 'gone', 'failures', 'failing']), Type.Null()], {
      description: 'manual: a member; gone: the receiver answered 410; failures: 20 in a row; failing: failing for 5 days',
    }),
    consecutiveFailures: Type.Integer(),
    failingSince: TimeOrNull,
    previousSecretUntil: Type.Union([Time, Type.Null()], { description: 'Until then the secret a rotation replaced also signs' }),
    createdAt: Time,
    updatedAt: Time,
  }),
);

export const CreateWebhookBody = named(
  'CreateWebhookRequest',
  Type.Object(
    {
      url: Url,
      events: Events,
      description: Type.Optional(Description),
      filter: Type.Optional(WebhookFilter),
      includeBots: Type.Optional(IncludeBots),
    },
    { additionalProperties: false, rule: 'must be a JSON object' },
  ),
);

export const UpdateWebhookBody = named(
  'UpdateWebhookRequest',
  Type.Object(
    {
      url: Type.Optional(Url),
      events: Type.Optional(Events),
      description: Type.Optional(Description),
      filter: Type.Optional(WebhookFilter),
      includeBots: Type.Optional(IncludeBots),
      enabled: Type.Optional(
        Type.Boolean({
          rule: 'must be true or false',
          description: 'false disables the endpoint; true enables it again and sends what waited',
        }),
      ),
    },
    { additionalProperties: false, rule: 'must be a JSON object' },
  ),
);

export const WebhookResponse = named('WebhookResponse', Type.Object({ webhook: WebhookEndpoint }));
export const WebhooksResponse = named('WebhooksResponse', Type.Object({ webhooks: Type.Array(WebhookEndpoint) }));
export const WebhookWithSecretResponse = named(
  'WebhookWithSecretResponse',
  Type.Object({
    webhook: WebhookEndpoint,
    secret: Type.String({ description: 'whsec_ + base64 of 32 random bytes; shown only now: store it to verify signatures' }),
  }),
);

export const WebhookDelivery = named(
  'WebhookDelivery',
  Type.Object({
    id: Type.String({ description: 'The webhook-id header: the same on every attempt' }),
    type: Type.String(),
    createdAt: Time,
    status: Enum(['pending', 'delivered', 'failed'], 'pending: waiting or being sent; delivered: a 2xx came; failed: no attempt left'),
    attempts: Type.Integer(),
    lastAttemptAt: TimeOrNull,
    responseStatus: Type.Union([Type.Integer(), Type.Null()], { description: "The receiver's HTTP status; null when none came" }),
    error: Type.Union([Type.String(), Type.Null()], {
      description: 'Why the attempt failed without an answer (time-out, refused address)',
    }),
    durationMs: Type.Union([Type.Integer(), Type.Null()]),
    response: Type.Union([Type.String(), Type.Null()], { description: "At most 1 KiB of the receiver's answer" }),
    nextAttemptAt: TimeOrNull,
    deliveredAt: TimeOrNull,
  }),
);

export const WebhookDeliveriesResponse = named(
  'WebhookDeliveriesResponse',
  Type.Object({
    deliveries: Type.Array(WebhookDelivery),
    nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor for older deliveries; null on the last page' }),
  }),
);

export const DeliveriesQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, rule: 'must be an integer between 1 and 100', description: 'Default 50' }),
    ),
    cursor: Type.Optional(Type.String({ pattern: '^[0-9]{1,18}$', rule: 'must be a cursor returned as nextCursor' })),
  },
  { additionalProperties: false },
);

export const DeliveryParams = Type.Object(
  {
    id: Type.String({ format: 'uuid', rule: 'must be a UUID' }),
    deliveryId: Type.String({ pattern: '^msg_[A-Za-z0-9]{1,64}$', rule: 'must be a delivery id (msg_…)' }),
  },
  { additionalProperties: false },
);

export type CreateWebhookRequest = Static<typeof CreateWebhookBody>;
export type UpdateWebhookRequest = Static<typeof UpdateWebhookBody>;
