// A claim's lease outlasts the attempt's time-out by a few seconds. Making a scan batch's body
// happens inside the claim (in a read worker, which may be busy): when that took so long that an
// attempt could outlive its lease, the round gives its claims back unsent, rather than send
// beside a second process's claim of the same messages. The next round sends each once.
import { describe, expect, it } from 'vitest';
import { ApiKeysRepository } from '../../src/db/accounts/api-keys-repository.ts';
import { WebhookDeliveriesRepository } from '../../src/db/webhooks/deliveries-repository.ts';
import { WebhookEndpointsRepository } from '../../src/db/webhooks/endpoints-repository.ts';
import { insertMessages } from '../../src/db/webhooks/outbox.ts';
import { DeliveryWorker } from '../../src/webhooks/delivery-worker.ts';
import type { SendJob } from '../../src/webhooks/sign-and-send.ts';
import { openFreshDatabase } from '../support/fresh-database.ts';

describe('a round whose claim took too long', () => {
  it('gives its claims back unsent, and the next round sends each message once', async () => {
    const db = await openFreshDatabase();
    const endpoints = new WebhookEndpointsRepository(db);
    const deliveries = new WebhookDeliveriesRepository(db);
    const accountId = await new ApiKeysRepository(db).ensureAccount('acme');
    const { endpoint } = await endpoints.create(accountId, {
      url: 'https://hooks.example/in',
      description: '',
      events: ['item.created'],
      filter: { tags: [], itemIds: [] },
      includeBots: false,
    });
    await insertMessages(
      db,
      Array.from({ length: 3 }, (_, k) => ({ endpointId: endpoint.id, accountId, type: 'item.created' as const, body: `{"n":${k}}` })),
    );
    // The worker's clock, moved by the claim below as a busy read pool would have taken it.
    let clock = Date.now();
    let claimTakesMs = 3_000;
    const claim = deliveries.claim.bind(deliveries);
    deliveries.claim = async (...args) => {
      const claimed = await claim(...args);
      clock += claimTakesMs;
      return claimed;
    };
    const sent: string[] = [];
    const worker = new DeliveryWorker(deliveries, endpoints, {
      allowPrivate: true,
      retryDelaysMs: [5_000],
      pollMs: 60_000,
      timeoutMs: 10_000,
      now: () => clock,
      send: async (job: SendJob) => {
        sent.push(job.id);
        return { ok: true, status: 204, error: null, durationMs: 1, response: '' };
      },
    });
    const rows = () =>
      db.kysely
        .selectFrom('webhook_messages')
        .select(['id', 'status', 'attempts', 'next_attempt_at'])
        .where('endpoint_id', '=', endpoint.id)
        .orderBy('seq')
        .execute();

    // 3 s is past half the lease's slack (5 s): nothing goes out, and every message is due again
    // at once, its claim not counted as an attempt.
    expect(await worker.round()).toBe(0);
    await worker.stop();
    expect(sent).toEqual([]);
    const released = await rows();
    expect(released.map((r) => [r.status, Number(r.attempts)])).toEqual([
      ['pending', 0],
      ['pending', 0],
      ['pending', 0],
    ]);
    for (const r of released) expect(Date.parse(String(r.next_attempt_at))).toBeLessThanOrEqual(clock);

    // A quick claim: each message is sent once, on its first attempt.
    claimTakesMs = 0;
    expect(await worker.round()).toBe(3);
    await worker.stop();
    const after = await rows();
    expect(sent.sort()).toEqual(after.map((r) => r.id).sort());
    expect(after.map((r) => [r.status, Number(r.attempts)])).toEqual([
      ['delivered', 1],
      ['delivered', 1],
      ['delivered', 1],
    ]);
  });
});
