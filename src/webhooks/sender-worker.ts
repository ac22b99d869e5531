// The body of the webhooks' sender thread (run by piscina; see sender-pool.ts): signs and sends
// the attempts the delivery worker hands it. No database here: claims and outcomes are written
// by the main thread, so SQLite keeps one writer.
import { type SendJob, signAndSend } from './sign-and-send.ts';
import type { SendResult } from './send-webhook.ts';

export default function send(job: SendJob): Promise<SendResult> {
  return signAndSend(job);
}
