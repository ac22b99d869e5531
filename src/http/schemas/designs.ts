// Request and answer schemas of the saved designs (/v1/designs).
import { Type } from 'typebox';
import { DesignPatchSchema, QrDesignSchema } from '../../domain/design/design-schema.ts';
import { DESIGN_NAME_MAX } from '../../domain/saved-design.ts';
import { named } from '../../domain/schema-kit.ts';

const Name = Type.String({
  minLength: 1,
  maxLength: DESIGN_NAME_MAX,
  rule: `must be a string of 1 to ${DESIGN_NAME_MAX} characters`,
  description: 'Shown in the studio',
});

export const SavedDesign = named(
  'SavedDesign',
  Type.Object(
    {
      id: Type.String({ format: 'uuid' }),
      name: Type.String(),
      design: QrDesignSchema,
      createdAt: Type.String({ format: 'date-time' }),
      updatedAt: Type.String({ format: 'date-time' }),
    },
    { description: 'A named design of the account, to start codes from' },
  ),
);

export const SavedDesignResponse = named('SavedDesignResponse', Type.Object({ design: SavedDesign }));
export const SavedDesignList = named(
  'SavedDesignList',
  Type.Object({
    designs: Type.Array(SavedDesign, {
      description: 'Newest first; as many as fit 4 MiB of designs (all of them unless custom logos are large)',
    }),
    nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as ?cursor= for the next page; null after the last' }),
  }),
);

export const DesignListQuery = Type.Object(
  { cursor: Type.Optional(Type.String({ maxLength: 200, rule: 'must be a cursor returned as nextCursor' })) },
  { additionalProperties: false },
);

export const CreateDesignBody = named(
  'CreateDesignRequest',
  Type.Object(
    { name: Name, design: DesignPatchSchema },
    { additionalProperties: false, rule: 'must be a JSON object with name and design' },
  ),
);

export const UpdateDesignBody = named(
  'UpdateDesignRequest',
  Type.Object(
    { name: Type.Optional(Name), design: Type.Optional(DesignPatchSchema) },
    { additionalProperties: false, rule: 'must be a JSON object' },
  ),
);
