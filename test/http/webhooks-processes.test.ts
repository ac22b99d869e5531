// The outbox's promise with real server processes: a server killed (SIGKILL) while deliveries are
// in flight loses none, and sends again only what was in flight; on PostgreSQL two processes
// deliver from one outbox and never send one message twice.
import { afterEach, describe, expect, it } from 'vitest';
import { ON_POSTGRES, freshDatabaseUrl } from '../support/databases.ts';
import { type RunningServer, runCli, startServer } from '../support/processes.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';

const EVENTS = 60;

describe('webhook delivery across processes', () => {
  let servers: RunningServer[] = [];
  let rx: Receiver;
  let dispose: () => Promise<void>;

  afterEach(async () => {
    await Promise.all(servers.map((s) => s.stop('SIGKILL')));
    servers = [];
    await rx?.close();
    await dispose?.();
  });

  async function setUp() {
    const db = await freshDatabaseUrl();
    dispose = db.dispose;
    rx = await startReceiver();
    const env = { DATABASE_URL: db.url, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '0.1,0.1,0.1,0.1,0.1' };
    const key = runCli(['keys', 'create', '--account', 'wh', '--scopes', 'qr:read,qr:write,webhooks:read,webhooks:write'], env)
      .stdout.trim()
      .split('\n')
      .at(-1) as string;
    return { env, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } };
  }

  async function makeEvents(server: RunningServer, headers: Record<string, string>) {
    const hook = await fetch(`${server.url}/v1/webhooks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: rx.url, events: ['item.created'] }),
    });
    expect(hook.status).toBe(201);
    const items = Array.from({ length: EVENTS }, (_, i) => ({ title: `k${i}`, url: `https://example.com/${i}` }));
    const batch = await fetch(`${server.url}/v1/qr/batch`, { method: 'POST', headers, body: JSON.stringify({ items }) });
    expect(batch.status).toBe(201);
    const { items: made } = (await batch.json()) as { items: { item: { id: string } }[] };
    return made.map((i) => i.item.id);
  }

  const itemOf = (body: string) => (JSON.parse(body) as { data: { id: string } }).data.id;

  it(`loses no event when the server is killed mid-delivery, and sends twice only what was in flight (${ON_POSTGRES ? 'PostgreSQL' : 'SQLite'})`, async () => {
    const { env, headers } = await setUp();
    // Slow answers: attempts are in flight when the kill comes.
    rx.answer = () => ({ status: 200, delayMs: 400 });
    const first = await startServer(env);
    servers.push(first);
    const ids = await makeEvents(first, headers);
    await rx.waitFor(12);
    await first.stop('SIGKILL');
    const before = rx.received.length;
    const sentBefore = new Set(rx.received.map((r) => r.headers['webhook-id']));
    rx.answer = () => ({ status: 200 });
    servers.push(await startServer(env));
    // In-flight claims come back once their lease (10 s time-out + 5 s) runs out.
    await expect.poll(() => new Set(rx.received.map((r) => itemOf(r.body))).size, { timeout: 80_000, interval: 200 }).toBe(EVENTS);
    // Then the leases of the killed process's attempts run out, and those are sent again.
    await new Promise((r) => setTimeout(r, 16_000));
    const told = new Set(rx.received.map((r) => itemOf(r.body)));
    for (const id of ids) expect(told.has(id)).toBe(true);
    // Sent twice: only messages the killed process had sent (in flight: at most 10 per endpoint).
    const counts = new Map<string, number>();
    for (const r of rx.received) counts.set(r.headers['webhook-id'] as string, (counts.get(r.headers['webhook-id'] as string) ?? 0) + 1);
    const twice = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
    expect(twice.length).toBeLessThanOrEqual(10);
    for (const id of twice) expect(sentBefore.has(id)).toBe(true);
    expect(before).toBeGreaterThanOrEqual(12);
    // Guards against a hang: it waits out a lease (16 s) beside two process starts and a CLI run.
  }, 180_000);

  it.skipIf(!ON_POSTGRES)(
    'two processes on one PostgreSQL database never send one message twice',
    async () => {
      const { env, headers } = await setUp();
      rx.answer = () => ({ status: 200, delayMs: 20 });
      servers.push(...(await Promise.all([startServer(env), startServer(env)])));
      const [a] = servers as [RunningServer, RunningServer];
      // Several batches through A, B's worker racing A's for the same endpoint.
      const ids = await makeEvents(a, headers);
      await rx.waitFor(EVENTS, 30_000);
      await new Promise((r) => setTimeout(r, 1500));
      expect(rx.received).toHaveLength(EVENTS);
      expect(new Set(rx.received.map((r) => r.headers['webhook-id'])).size).toBe(EVENTS);
      expect(new Set(rx.received.map((r) => itemOf(r.body)))).toEqual(new Set(ids));
    },
    90_000,
  );
});
