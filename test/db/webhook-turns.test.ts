// Every endpoint with messages due takes its turn, however many are due: a round looks at a
// bounded number of endpoints, and the next round starts after the last one it looked at (a
// plain LIMIT gave the same first endpoints every round while they had a backlog).
import { describe, expect, it } from 'vitest';
import { ApiKeysRepository } from '../../src/db/accounts/api-keys-repository.ts';
import { WebhookDeliveriesRepository } from '../../src/db/webhooks/deliveries-repository.ts';
import { WebhookEndpointsRepository } from '../../src/db/webhooks/endpoints-repository.ts';
import { insertMessages } from '../../src/db/webhooks/outbox.ts';
import { DeliveryWorker } from '../../src/webhooks/delivery-worker.ts';
import type { SendJob } from '../../src/webhooks/sign-and-send.ts';
import { openFreshDatabase } from '../support/fresh-database.ts';

const ENDPOINTS = 7;
const PER_ROUND = 3;

describe('delivery rounds', () => {
  it('serve every due endpoint in turn, a bounded number a round, wrapping around', async () => {
    const db = await openFreshDatabase();
    const endpoints = new WebhookEndpointsRepository(db);
    const deliveries = new WebhookDeliveriesRepository(db);
    const ids: string[] = [];
    for (const name of ['a', 'b']) {
      const accountId = await new ApiKeysRepository(db).ensureAccount(name);
      for (let i = 0; i < (name === 'a' ? 4 : ENDPOINTS - 4); i++) {
        const { endpoint } = await endpoints.create(accountId, {
          url: `https://hooks.example/${name}${i}`,
          description: '',
          events: ['item.created'],
          filter: { tags: [], itemIds: [] },
          includeBots: false,
        });
        ids.push(endpoint.id);
        // A backlog on every endpoint: each always has more due than a round claims.
        await insertMessages(
          db,
          Array.from({ length: 5 }, (_, k) => ({
            endpointId: endpoint.id,
            accountId,
            type: 'item.created' as const,
            body: `{"n":${k}}`,
          })),
        );
      }
    }
    const sentTo: string[][] = [];
    const worker = new DeliveryWorker(deliveries, endpoints, {
      allowPrivate: true,
      retryDelaysMs: [5_000],
      pollMs: 60_000,
      timeoutMs: 1_000,
      endpointsPerRound: PER_ROUND,
      perEndpointInFlight: 1,
      // The receiver: what matters here is which endpoints a round picks, not the HTTP.
      send: async (job: SendJob) => {
        sentTo.at(-1)?.push(job.url);
        return { ok: true, status: 204, error: null, durationMs: 1, response: '' };
      },
    });
    const urls = await endpoints.targets(ids);
    const served = new Set<string>();
    for (let round = 0; round < Math.ceil(ENDPOINTS / PER_ROUND); round++) {
      sentTo.push([]);
      expect(await worker.round()).toBe(PER_ROUND);
      for (const url of sentTo.at(-1) ?? []) served.add(url);
      // Never started (no rounds of its own): stop() waits for this round's attempts to be recorded.
      await worker.stop();
    }
    // Three rounds of three: all seven endpoints, the first two twice.
    expect([...served].sort()).toEqual([...urls.values()].map((t) => t.url).sort());
    expect(sentTo.map((r) => r.length)).toEqual([3, 3, 3]);
  });
});
