// The events an endpoint can subscribe to, and the limits of an account's endpoints
// (product-decisions §12). Browser-safe: the web app lists the same events.
export const WEBHOOK_EVENTS = [
  'scan.created',
  'item.created',
  'item.updated',
  'item.paused',
  'item.resumed',
  'item.deleted',
  'item.expired',
  'item.capped',
  'apiKey.expiring',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** Sent only by POST /v1/webhooks/{id}/test, whatever the endpoint subscribes to. */
export const TEST_EVENT = 'webhook.test';
export type WebhookMessageType = WebhookEvent | typeof TEST_EVENT;

export const ENDPOINTS_PER_ACCOUNT = 10;
export const FILTER_TAGS_MAX = 50;
export const FILTER_ITEM_IDS_MAX = 1000;
export const DESCRIPTION_MAX = 200;
export const URL_MAX = 2048;

export function isWebhookEvent(value: string): value is WebhookEvent {
  return (WEBHOOK_EVENTS as readonly string[]).includes(value);
}

/** Which of an account's codes an endpoint hears of: empty lists mean every code. */
export interface EndpointFilter {
  tags: string[];
  itemIds: string[];
}

/** A code passes when it is among itemIds (if any) and carries one of the tags (if any). */
export function filterMatches(filter: EndpointFilter, item: { id: string; tags: readonly string[] }): boolean {
  if (filter.itemIds.length > 0 && !filter.itemIds.includes(item.id)) return false;
  if (filter.tags.length > 0 && !item.tags.some((t) => filter.tags.includes(t))) return false;
  return true;
}
