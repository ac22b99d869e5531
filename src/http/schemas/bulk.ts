// Schemas of bulk create (POST /v1/qr/batch) and bulk pause, resume and delete (POST /v1/qr/bulk).
import { Type } from 'typebox';
import { BATCH_MAX_ITEMS } from '../../domain/qr-items/qr-batch.ts';
import { BULK_ACTIONS, BULK_MAX_IDS } from '../../domain/qr-items/qr-bulk.ts';
import { Enum, named } from '../../domain/schema-kit.ts';
import { CreateQrBody, ItemWithWarningsResponse } from './qr-items.ts';

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
