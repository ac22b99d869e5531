// scan.created, item.capped and item.expired: taken from the scan log after the roll-ups (never
// on the redirect), told once each, with no IP, user agent or visitor hash in them.
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ScanBatch, scanBatchBody } from '../../src/db/webhooks/scan-batches.ts';
import { SCANS_PER_MESSAGE, feedScanEvents } from '../../src/db/webhooks/scan-events.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';
import { IOS_RULE_AND_ANDROID_SPLIT } from '../support/rule-fixtures.ts';
import type { ScanEventData } from '../../src/domain/webhooks/payloads.ts';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const ALL = 'qr:read,qr:write,webhooks:read,webhooks:write';

/** ScanEventData's fields in the documented order: the compiler holds this list to the type. */
const SCAN_FIELDS: { [K in keyof Required<ScanEventData>]: true } = {
  scanId: true,
  scannedAt: true,
  item: true,
  classification: true,
  unique: true,
  outcome: true,
  device: true,
  os: true,
  browser: true,
  country: true,
  referrerHost: true,
  ruleId: true,
  variant: true,
  destination: true,
};

interface Event {
  type: string;
  data: Record<string, unknown> & { item?: { id: string; code: string }; id?: string };
}

/** The scans of scan.created messages (batched: each carries data.scans), in order. */
function scansOf(events: readonly Event[]): Event['data'][] {
  return events.flatMap((e) => (e.data as { scans: Event['data'][] }).scans);
}

describe('scan events', () => {
  let t: TestApp;
  let rx: Receiver;
  let key: string;
  beforeEach(async () => {
    t = await makeTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    rx = await startReceiver();
    key = await t.key('acme', ALL);
  });
  afterEach(async () => {
    await t.close();
    await rx.close();
  });

  const hook = async (body: Record<string, unknown>, url = rx.url) => {
    const res = await t.request({ method: 'POST', url: '/v1/webhooks', key, payload: { url, ...body } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { webhook: { id: string }; secret: string };
  };
  const code = async (extra: Record<string, unknown> = {}) => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/qr',
      key,
      payload: { title: 'Poster', url: 'https://example.com/menu', ...extra },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().item as { id: string; code: string };
  };
  const scan = (c: string, ua = IPHONE, ip = '198.51.100.23') =>
    t.request({
      method: 'GET',
      url: `/r/${c}`,
      headers: { 'user-agent': ua, referer: 'https://news.example.org/story?id=1' },
      remoteAddress: ip,
    });
  const events = (n: number) => rx.waitFor(n).then((rs) => rs.map((r) => JSON.parse(r.body) as Event));

  it('tells each human scan once, signed, with its class and whether it was unique, and nothing that identifies the visitor', async () => {
    const { secret } = await hook({ events: ['scan.created'] });
    const item = await code();
    expect((await scan(item.code)).statusCode).toBe(302);
    expect((await scan(item.code)).statusCode).toBe(302); // same visitor: not unique
    expect((await scan(item.code, BOT)).statusCode).toBe(302); // a bot: not told
    await t.services.rollups.catchUp();
    await t.services.webhooks.feed();
    const got = await events(1);
    await new Promise((r) => setTimeout(r, 1500));
    for (const r of rx.received) new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
    expect(got.every((e) => e.type === 'scan.created')).toBe(true);
    const all = scansOf(rx.received.map((r) => JSON.parse(r.body) as Event));
    expect(all).toHaveLength(2);
    const [first, second] = all as [Event['data'], Event['data']];
    expect(first).toMatchObject({
      item: { id: item.id, code: item.code },
      classification: 'human',
      unique: true,
      outcome: 'redirect',
      device: 'mobile',
      os: 'iOS',
      browser: 'Safari',
      referrerHost: 'news.example.org',
      destination: 'https://example.com/menu',
    });
    expect(second).toMatchObject({ unique: false });
    // Made by the database (json_object): every field of ScanEventData (the type the SQL writes),
    // in the documented order, times as toISOString writes them.
    expect(Object.keys(first)).toEqual(Object.keys(SCAN_FIELDS));
    expect(first.scannedAt).toBe(new Date(first.scannedAt as string).toISOString());
    expect(first).toMatchObject({ ruleId: null, variant: null });
    expect(typeof first.scanId).toBe('number');
    const stored = await t.db.kysely
      .selectFrom('scans')
      .select('scanned_at')
      .where('id', '=', Number(first.scanId))
      .executeTakeFirstOrThrow();
    expect(first.scannedAt).toBe(new Date(stored.scanned_at).toISOString());
    expect(Number(second.scanId)).toBeGreaterThan(Number(first.scanId));
    const raw = rx.received.map((r) => r.body).join('\n');
    expect(raw).not.toContain('198.51.100.23');
    expect(raw).not.toContain('iPhone OS 17_0');
    const hashes = await t.db.kysely.selectFrom('scans').select('visitor_hash').execute();
    for (const h of hashes) expect(raw).not.toContain(h.visitor_hash);
  });

  it('tells the rule, the variant and the destination a scan was sent by, and null for a code with no match', async () => {
    await hook({ events: ['scan.created'] });
    const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36';
    const item = await code({ rules: IOS_RULE_AND_ANDROID_SPLIT });
    const [iphones, split] = (item as unknown as { rules: { id: string }[] }).rules;
    const android = await scan(item.code, ANDROID, '192.0.2.20');
    await scan(item.code);
    await scan(item.code, 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36');
    await t.services.rollups.catchUp();
    await t.services.webhooks.feed();
    await expect.poll(() => scansOf(rx.received.map((r) => JSON.parse(r.body) as Event)).length, { timeout: 15_000 }).toBe(3);
    const [a, i, d] = scansOf(rx.received.map((r) => JSON.parse(r.body) as Event)) as [Event['data'], Event['data'], Event['data']];
    const variant = android.headers.location === 'https://example.com/a' ? 0 : 1;
    expect(a).toMatchObject({ ruleId: split?.id, variant, destination: android.headers.location });
    expect(i).toMatchObject({ ruleId: iphones?.id, variant: null, destination: 'https://apps.example.com/ios' });
    expect(d).toMatchObject({ ruleId: null, variant: null, destination: 'https://example.com/menu' });
  });

  it('tells bots only to endpoints with includeBots, and each endpoint only the codes its filter names', async () => {
    const a = await code({ tags: ['print'] });
    const b = await code();
    const other = await startReceiver();
    try {
      await hook({ events: ['scan.created'], includeBots: true, filter: { itemIds: [a.id] } });
      await hook({ events: ['scan.created'], filter: { tags: ['print'] } }, other.url);
      await scan(a.code, BOT);
      await scan(a.code);
      await scan(b.code);
      await rx.waitFor(1);
      await other.waitFor(1);
      await new Promise((r) => setTimeout(r, 1500));
      const mine = scansOf(rx.received.map((r) => JSON.parse(r.body) as Event));
      expect(mine.map((s) => s.classification).sort()).toEqual(['bot', 'human']);
      expect(mine.every((s) => s.item?.id === a.id)).toBe(true);
      const theirs = scansOf(other.received.map((r) => JSON.parse(r.body) as Event));
      expect(theirs).toHaveLength(1);
      expect(theirs[0]).toMatchObject({ item: { id: a.id }, classification: 'human' });
    } finally {
      await other.close();
    }
  });

  it('tells scans made before the endpoint existed to no one, and another account’s scans never', async () => {
    const item = await code();
    await scan(item.code);
    await t.services.rollups.catchUp();
    await t.services.webhooks.feed();
    await hook({ events: ['scan.created'] });
    const otherKey = await t.key('globex', ALL);
    const theirs = await t.request({ method: 'POST', url: '/v1/qr', key: otherKey, payload: { title: 'x', url: 'https://example.com/x' } });
    await scan(theirs.json().item.code);
    await scan(item.code, IPHONE, '192.0.2.99');
    await events(1);
    await new Promise((r) => setTimeout(r, 1500));
    const told = scansOf(rx.received.map((r) => JSON.parse(r.body) as Event));
    expect(told).toHaveLength(1);
    expect(told[0]!.item?.id).toBe(item.id);
  });

  it('batches a burst of scans into a few messages per endpoint, none past the limit, every scan once', async () => {
    await hook({ events: ['scan.created'] });
    const item = await code();
    for (let i = 0; i < 230; i++) await scan(item.code, IPHONE, `192.0.2.${i % 250}`);
    await t.services.rollups.catchUp();
    await t.services.webhooks.feed();
    await expect.poll(() => scansOf(rx.received.map((r) => JSON.parse(r.body) as Event)).length, { timeout: 15_000 }).toBe(230);
    const sizes = rx.received.map((r) => (JSON.parse(r.body) as { data: { scans: unknown[] } }).data.scans.length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(SCANS_PER_MESSAGE);
    // The feed's turns (every half second) cut the burst, not a message per scan.
    expect(sizes.length).toBeLessThanOrEqual(46);
    const ids = scansOf(rx.received.map((r) => JSON.parse(r.body) as Event)).map((s) => s.scanId);
    expect(new Set(ids).size).toBe(230);
  });

  it('stores one body for the endpoints that take the same scans, and its own for a filtered one', async () => {
    const tagged = await code({ tags: ['print'] });
    const plain = await code();
    await hook({ events: ['scan.created'] });
    await hook({ events: ['scan.created'] });
    await hook({ events: ['scan.created'], filter: { tags: ['print'] } });
    await t.services.webhooks.stop();
    await scan(tagged.code);
    await scan(plain.code, IPHONE, '192.0.2.7');
    await t.services.rollups.catchUp();
    await feedScanEvents(t.db);
    const messages = await t.db.kysely.selectFrom('webhook_messages').select(['endpoint_id', 'payload_id']).execute();
    expect(messages).toHaveLength(3);
    expect(new Set(messages.map((m) => m.payload_id)).size).toBe(2);
    // The payloads name their scans; the bodies are made from the log when sent.
    const payloads = await t.db.kysely.selectFrom('webhook_payloads').select(['body', 'scans']).execute();
    expect(payloads.map((p) => p.body)).toEqual(['', '']);
    const sizes: number[] = [];
    for (const p of payloads) {
      const body = await scanBatchBody(t.db, JSON.parse(p.scans ?? 'null') as ScanBatch);
      sizes.push((JSON.parse(body ?? '{}') as { data: { scans: unknown[] } }).data.scans.length);
    }
    expect(sizes.sort()).toEqual([1, 2]);
  });

  it('tells an endpoint made during a slice only the scans after it, and shares no body with an older one', async () => {
    const item = await code();
    await hook({ events: ['scan.created'] });
    await t.services.webhooks.stop();
    await scan(item.code);
    const later = await startReceiver();
    try {
      await new Promise((r) => setTimeout(r, 5));
      await hook({ events: ['scan.created'] }, later.url);
      await scan(item.code, IPHONE, '192.0.2.8');
      await t.services.rollups.catchUp();
      await feedScanEvents(t.db);
      const messages = await t.db.kysely.selectFrom('webhook_messages').select('payload_id').execute();
      expect(messages).toHaveLength(2);
      expect(new Set(messages.map((m) => m.payload_id)).size).toBe(2);
      t.services.webhooks.start();
      await rx.waitFor(1);
      await later.waitFor(1);
      expect(scansOf(rx.received.map((r) => JSON.parse(r.body) as Event))).toHaveLength(2);
      const theirs = scansOf(later.received.map((r) => JSON.parse(r.body) as Event));
      expect(theirs).toHaveLength(1);
      expect(Number(theirs[0]?.scanId)).toBe(
        Math.max(...scansOf(rx.received.map((r) => JSON.parse(r.body) as Event)).map((x) => Number(x.scanId))),
      );
    } finally {
      await later.close();
    }
  });

  it('never sends scans forgotten before their message went out; a message left with none is dropped, saying why', async () => {
    const forgotten = await code();
    const kept = await code();
    const { webhook } = await hook({ events: ['scan.created'] });
    await t.services.webhooks.stop();
    await scan(forgotten.code);
    await t.services.rollups.catchUp();
    await feedScanEvents(t.db);
    await scan(forgotten.code, IPHONE, '192.0.2.9');
    await scan(kept.code, IPHONE, '192.0.2.10');
    await t.services.rollups.catchUp();
    await feedScanEvents(t.db);
    expect(await t.db.kysely.selectFrom('webhook_messages').select('seq').execute()).toHaveLength(2);
    const gone = await t.request({ method: 'DELETE', url: `/v1/qr/${forgotten.id}/scans`, key });
    expect(gone.statusCode, gone.body).toBeLessThan(300);
    t.services.webhooks.start();
    await rx.waitFor(1);
    const log = async () => {
      const res = await t.request({ method: 'GET', url: `/v1/webhooks/${webhook.id}/deliveries`, key });
      return res.json().deliveries as { status: string; error: string | null; attempts: number }[];
    };
    await expect.poll(async () => (await log()).map((d) => d.status).sort(), { timeout: 10_000 }).toEqual(['delivered', 'failed']);
    const dropped = (await log()).find((d) => d.status === 'failed');
    expect(dropped?.error).toMatch(/forgotten/);
    await new Promise((r) => setTimeout(r, 500));
    const told = scansOf(rx.received.map((r) => JSON.parse(r.body) as Event));
    expect(told).toHaveLength(1);
    expect(told[0]?.item?.id).toBe(kept.id);
    // On a SQLite file the bodies were made in the read workers, off the thread that answers short links.
    const pool = t.services.reads.pool;
    if (pool) expect(pool.stats.completed.scanBatch).toBeGreaterThanOrEqual(2);
    // Not a failure of the endpoint's.
    const endpoint = await t.request({ method: 'GET', url: `/v1/webhooks/${webhook.id}`, key });
    expect(endpoint.json().webhook).toMatchObject({ consecutiveFailures: 0 });
  });

  it('tells item.capped once, when a code first refuses a scan for its cap', async () => {
    await hook({ events: ['item.capped'] });
    const item = await code({ maxScans: 1 });
    expect((await scan(item.code)).statusCode).toBe(302);
    await scan(item.code, IPHONE, '192.0.2.1'); // refused: capped
    await scan(item.code, IPHONE, '192.0.2.2'); // refused again: not told again
    const [e] = await events(1);
    expect(e).toMatchObject({ type: 'item.capped', data: { id: item.id, code: item.code, maxScans: 1 } });
    await new Promise((r) => setTimeout(r, 1500));
    expect(rx.received).toHaveLength(1);
  });

  it('tells item.expired once, after the code’s end passed', async () => {
    await hook({ events: ['item.expired'] });
    // Three seconds ahead, so a loaded machine still creates the code before its end.
    const end = Date.now() + 3_000;
    const soon = new Date(end).toISOString();
    const item = await code({ expiresAt: soon });
    await new Promise((r) => setTimeout(r, Math.max(0, end - Date.now()) + 200));
    await t.services.webhooks.checkExpiries();
    await t.services.webhooks.checkExpiries();
    const [e] = await events(1);
    expect(e).toMatchObject({ type: 'item.expired', data: { id: item.id, expiresAt: soon } });
    await new Promise((r) => setTimeout(r, 800));
    expect(rx.received).toHaveLength(1);
  });
  it('tells apiKey.expiring once, 7 days before a key stops working, never for a revoked or rotated key, and never with its secret', async () => {
    await hook({ events: ['apiKey.expiring'], filter: { tags: ['unrelated'] } });
    const accountId = await t.services.keys.ensureAccount('acme');
    const day = 86_400_000;
    const make = (name: string, inDays: number) =>
      t.services.keys.createKey({
        accountId,
        name,
        prefix: `qrt_${name}`,
        hash: `hash-${name}`,
        scopes: ['qr:read'],
        expiresAt: new Date(Date.now() + inDays * day).toISOString(),
      });
    const soon = await make('soon', 3);
    await make('later', 30);
    const revoked = await make('revoked', 2);
    await t.db.kysely.updateTable('api_keys').set({ revoked_at: new Date().toISOString() }).where('id', '=', revoked.id).execute();
    // A rotated key expires at the end of its grace period: its successor is already in hand.
    const rotated = await make('rotated', 1);
    await t.db.kysely.updateTable('api_keys').set({ replaced_by: soon.id }).where('id', '=', rotated.id).execute();
    await t.services.webhooks.checkExpiries();
    await t.services.webhooks.checkExpiries();
    const [e] = await events(1);
    expect(e).toMatchObject({
      type: 'apiKey.expiring',
      data: { key: { id: soon.id, name: 'soon', prefix: 'qrt_soon', scopes: ['qr:read'] } },
    });
    expect(JSON.stringify(e)).not.toContain('hash-soon');
    await new Promise((r) => setTimeout(r, 800));
    expect(rx.received).toHaveLength(1);
  });
});
