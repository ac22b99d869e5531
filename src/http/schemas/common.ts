// Schemas every v1 route shares: the error answer, ids, the account of a linking tab.
import { Type } from 'typebox';
import { named } from '../../domain/schema-kit.ts';

export const IdParams = Type.Object({ id: Type.String({ format: 'uuid', rule: 'must be a UUID' }) }, { additionalProperties: false });

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
