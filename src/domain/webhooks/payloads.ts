// What an event's body says. Only what a receiver needs to act: never an IP, a full user agent,
// a visitor hash, a password (nor a Wi-Fi code's payload, which holds one) or the design.
import type { WebhookMessageType } from './webhook-events.ts';

export interface WebhookBody<T> {
  type: WebhookMessageType;
  timestamp: string;
  data: T;
}

/** An item as events show it; `url` only for url codes (other payloads may hold secrets). */
export interface ItemEventData {
  id: string;
  code: string;
  title: string;
  contentType: string;
  url: string | null;
  active: boolean;
  tags: string[];
  activatesAt: string | null;
  expiresAt: string | null;
  maxScans: number | null;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

export type ScanClass = 'human' | 'bot' | 'preview';

export interface ScanEventData {
  scanId: number;
  scannedAt: string;
  item: { id: string; code: string };
  /** human or bot; `preview` is reserved for link previews once the log tells them from other bots. */
  classification: ScanClass;
  unique: boolean;
  /** redirect, landing, or why the code refused it (scheduled, expired, capped, password_required, password_failed). */
  outcome: string;
  device: string;
  os: string | null;
  browser: string | null;
  country: string | null;
  referrerHost: string | null;
  ruleId: string | null;
  variant: number | null;
  destination: string | null;
}

export function eventBody<T>(type: WebhookMessageType, timestamp: string, data: T): string {
  const body: WebhookBody<T> = { type, timestamp, data };
  return JSON.stringify(body);
}
