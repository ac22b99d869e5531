// Attempts that end together are recorded in one transaction (deliveries-repository.ts
// recordAttempts): each message gets its own outcome, each endpoint its own run of failures, and a
// 410 disables only its endpoint, whatever else the batch holds.
import { describe, expect, it } from 'vitest';
import { ApiKeysRepository } from '../../src/db/accounts/api-keys-repository.ts';
import { WebhookDeliveriesRepository } from '../../src/db/webhooks/deliveries-repository.ts';
import { WebhookEndpointsRepository } from '../../src/db/webhooks/endpoints-repository.ts';
import { insertMessages } from '../../src/db/webhooks/outbox.ts';
import { DeliveryWorker } from '../../src/webhooks/delivery-worker.ts';
import type { SendJob } from '../../src/webhooks/sign-and-send.ts';
import { openFreshDatabase } from '../support/fresh-database.ts';

describe('attempts recorded together', () => {
  it('give each message its outcome and each endpoint its own failures', async () => {
    const db = await openFreshDatabase();
    const endpoints = new WebhookEndpointsRepository(db);
    const deliveries = new WebhookDeliveriesRepository(db);
    const accountId = await new ApiKeysRepository(db).ensureAccount('acme');
    const make = async (url: string) =>
      (
        await endpoints.create(accountId, {
          url,
          description: '',
          events: ['item.created'],
          filter: { tags: [], itemIds: [] },
          includeBots: false,
        })
      ).endpoint.id;
    const ok = await make('https://ok.example/in');
    const failing = await make('https://failing.example/in');
    const gone = await make('https://gone.example/in');
    await insertMessages(
      db,
      [ok, failing, gone].flatMap((endpointId) =>
        Array.from({ length: 3 }, (_, k) => ({ endpointId, accountId, type: 'item.created' as const, body: `{"n":${k}}` })),
      ),
    );
    // Every attempt ends at once: all nine go into one record.
    let transactions = 0;
    const record = deliveries.recordAttempts.bind(deliveries);
    deliveries.recordAttempts = async (...args) => {
      transactions++;
      return record(...args);
    };
    const status = { 'ok.example': 204, 'failing.example': 500, 'gone.example': 410 } as Record<string, number>;
    // The nine sends end together once all have begun: the round claims endpoint by endpoint, and
    // on a loaded machine a claim can take longer than the worker's wait for attempts to group.
    let begun = 0;
    let allBegun!: () => void;
    const together = new Promise<void>((resolve) => (allBegun = resolve));
    const worker = new DeliveryWorker(deliveries, endpoints, {
      allowPrivate: true,
      retryDelaysMs: [5_000],
      pollMs: 60_000,
      timeoutMs: 10_000,
      send: async (job: SendJob) => {
        if (++begun === 9) allBegun();
        await together;
        const s = status[new URL(job.url).hostname] as number;
        return { ok: s < 300, status: s, error: s < 300 ? null : `HTTP ${s}`, durationMs: 1, response: '' };
      },
    });
    expect(await worker.round()).toBe(9);
    await worker.stop();
    expect(transactions).toBe(1);

    const messages = await db.kysely
      .selectFrom('webhook_messages')
      .select(['endpoint_id', 'status', 'attempts', 'last_status', 'next_attempt_at'])
      .orderBy('seq')
      .execute();
    const of = (id: string) => messages.filter((m) => m.endpoint_id === id);
    expect(of(ok).map((m) => [m.status, Number(m.last_status), m.next_attempt_at])).toEqual(Array(3).fill(['delivered', 204, null]));
    // Retried after the schedule's 5 s (with its jitter), still pending.
    for (const m of of(failing)) {
      expect([m.status, Number(m.last_status), Number(m.attempts)]).toEqual(['pending', 500, 1]);
      expect(Date.parse(String(m.next_attempt_at))).toBeGreaterThan(Date.now());
    }
    for (const m of of(gone)) expect([m.status, Number(m.last_status)]).toEqual(['pending', 410]);

    const state = await db.kysely
      .selectFrom('webhook_endpoints')
      .select(['id', 'consecutive_failures', 'disabled_at', 'disabled_reason'])
      .execute();
    const endpoint = (id: string) => state.find((e) => e.id === id);
    expect(Number(endpoint(ok)?.consecutive_failures)).toBe(0);
    expect(endpoint(ok)?.disabled_at).toBeNull();
    expect(Number(endpoint(failing)?.consecutive_failures)).toBe(3);
    expect(endpoint(failing)?.disabled_at).toBeNull();
    expect(endpoint(gone)?.disabled_at).not.toBeNull();
    expect(endpoint(gone)?.disabled_reason).toBe('gone');
    await db.close();
  });
});
