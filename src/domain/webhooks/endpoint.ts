// An account's webhook endpoint, as the API shows it (never its secret, after create and rotate).
import type { EndpointFilter, WebhookEvent } from './webhook-events.ts';

export type DisabledReason = 'manual' | 'gone' | 'failures' | 'failing';

export interface WebhookEndpoint {
  id: string;
  url: string;
  description: string;
  events: WebhookEvent[];
  filter: EndpointFilter;
  includeBots: boolean;
  /** False once disabled (by a member, a 410, or too many failures); see disabledReason. */
  enabled: boolean;
  disabledAt: string | null;
  /** manual, gone (410), failures (20 in a row), failing (5 days); null while enabled. */
  disabledReason: DisabledReason | null;
  consecutiveFailures: number;
  failingSince: string | null;
  /** Until then the secret a rotation replaced signs too. */
  previousSecretUntil: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What the delivery worker needs of an endpoint. */
export interface EndpointTarget {
  id: string;
  url: string;
  secrets: string[];
}

export interface WebhookDelivery {
  id: string;
  type: string;
  createdAt: string;
  /** pending: waiting or being sent; delivered; failed: no attempt left (or the endpoint was disabled). */
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastAttemptAt: string | null;
  /** The receiver's HTTP status; null when no answer came (see error). */
  responseStatus: number | null;
  error: string | null;
  durationMs: number | null;
  /** At most 1 KiB of the receiver's answer. */
  response: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
}
