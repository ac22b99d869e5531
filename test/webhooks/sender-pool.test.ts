// The sender thread: attempts signed and sent off the main thread verify with the specification's
// reference library (bodies given as text or as shared bytes), a receiver's status comes back as it is, and closing stops the thread.
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { sharedUtf8 } from '../../src/db/webhooks/scan-batches.ts';
import { newWebhookSecret } from '../../src/domain/webhooks/signature.ts';
import { SenderPool } from '../../src/webhooks/sender-pool.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';

describe('the webhooks sender thread', () => {
  let rx: Receiver;
  let pool: SenderPool;
  afterEach(async () => {
    await pool?.close();
    await rx?.close();
  });

  const job = (secrets: string[], id: string, body: string | Uint8Array) => ({
    url: rx.url,
    secrets,
    id,
    timestamp: Math.floor(Date.now() / 1000),
    body,
    allowPrivate: true,
    timeoutMs: 5_000,
  });

  it('signs and sends many attempts at once, each verified by the Standard Webhooks library, and answers each status', async () => {
    rx = await startReceiver();
    rx.answer = (r) => (r.headers['webhook-id'] === 'msg_gone' ? { status: 410, body: 'gone' } : { status: 204, delayMs: 100 });
    pool = new SenderPool(20);
    const secret = newWebhookSecret();
    const old = newWebhookSecret();
    const big = JSON.stringify({
      type: 'scan.created',
      timestamp: new Date().toISOString(),
      data: { scans: Array(1000).fill({ scanId: 1, device: 'mobile', title: 'Café ☕ 東京' }) },
    });
    const results = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => pool.send(job([secret], `msg_${i}`, i % 2 === 0 ? big : sharedUtf8(big)))),
      pool.send(job([secret, old], 'msg_rotating', '{"type":"webhook.test"}')),
      pool.send(job([secret], 'msg_gone', '{"type":"webhook.test"}')),
    ]);
    expect(results.slice(0, 11).every((r) => r.ok && r.status === 204)).toBe(true);
    expect(results[11]).toMatchObject({ ok: false, status: 410, response: 'gone' });
    expect(rx.received).toHaveLength(12);
    for (const r of rx.received) {
      const headers = r.headers as Record<string, string>;
      expect(() => new Webhook(secret).verify(r.body, headers)).not.toThrow();
      if (headers['webhook-id'] === 'msg_rotating') expect(() => new Webhook(old).verify(r.body, headers)).not.toThrow();
    }
    expect(rx.received.find((r) => r.headers['webhook-id'] === 'msg_2')?.body).toBe(big);
    expect(rx.received.find((r) => r.headers['webhook-id'] === 'msg_3')?.body).toBe(big);
  });

  it('refuses a private address in the thread as on the main thread', async () => {
    rx = await startReceiver();
    pool = new SenderPool(2);
    const result = await pool.send({ ...job([newWebhookSecret()], 'msg_x', '{}'), allowPrivate: false });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/refused/);
    expect(rx.received).toHaveLength(0);
  });
});
