// One attempt as a job: sign the body for this attempt's timestamp (Standard Webhooks) and POST it.
// Plain data in and out, so it runs on the main thread or in the sender thread (sender-pool.ts).
import { signatureHeader } from '../domain/webhooks/signature.ts';
import { type SendResult, sendWebhook } from './send-webhook.ts';

export interface SendJob {
  url: string;
  /** The secrets in force: one, or two during a rotation's overlap. */
  secrets: readonly string[];
  /** webhook-id: the message's, the same on every attempt. */
  id: string;
  /** webhook-timestamp, seconds. */
  timestamp: number;
  /** The text, or its UTF-8 bytes (shared memory crosses to the sender thread uncopied). */
  body: string | Uint8Array;
  allowPrivate: boolean;
  timeoutMs: number;
}

export type Sender = (job: SendJob) => Promise<SendResult>;

export function signAndSend(job: SendJob): Promise<SendResult> {
  const headers = {
    'webhook-id': job.id,
    'webhook-timestamp': String(job.timestamp),
    'webhook-signature': signatureHeader(job.secrets, job.id, job.timestamp, job.body),
  };
  return sendWebhook(job.url, headers, job.body, { allowPrivate: job.allowPrivate, timeoutMs: job.timeoutMs });
}
