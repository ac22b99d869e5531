// Schemas of an account's tags: list, rename, delete.
import { Type } from 'typebox';
import { named, Text } from '../../domain/schema-kit.ts';
import { TAG_MAX_LENGTH } from '../../domain/qr-items/tags.ts';

/**
 * A tag as sent: its 64 characters are counted after trimming and NFC (normalizeTag), so the
 * schema only bounds the raw string, with room for spaces around it and decomposed accents.
 */
export const TagText = (description?: string) =>
  Type.String({ maxLength: TAG_MAX_LENGTH * 4, rule: `must be a string of at most ${TAG_MAX_LENGTH} characters`, description });

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
