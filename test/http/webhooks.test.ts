import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestApp, makeTestApp } from '../support/test-app.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';
import { inviteMember, setupOwner } from '../support/sessions.ts';

const ALL = 'qr:read,qr:write,webhooks:read,webhooks:write';

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out; last: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('webhooks', () => {
  let t: TestApp;
  let rx: Receiver;
  let key: string;

  beforeEach(async () => {
    t = await makeTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '0.05,0.05,0.05' });
    rx = await startReceiver();
    key = await t.key('acme', ALL);
  });
  afterEach(async () => {
    await t.close();
    await rx.close();
  });

  const create = async (body: Record<string, unknown>, k = key) =>
    t.request({ method: 'POST', url: '/v1/webhooks', key: k, payload: body });
  const newCode = async (k = key, extra: Record<string, unknown> = {}) => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/qr',
      key: k,
      payload: { title: 'Code', url: 'https://example.com/a', ...extra },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().item as { id: string; code: string };
  };

  it('signs item events so the Standard Webhooks library verifies them, with a stable id and no secret after creation', async () => {
    const res = await create({
      url: rx.url,
      events: ['item.created', 'item.updated', 'item.paused', 'item.resumed', 'item.deleted'],
      description: 'CRM',
    });
    expect(res.statusCode).toBe(201);
    const { webhook, secret } = res.json();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    const read = await t.request({ method: 'GET', url: `/v1/webhooks/${webhook.id}`, key });
    expect(read.body).not.toContain(secret.slice(6));
    const list = await t.request({ method: 'GET', url: '/v1/webhooks', key });
    expect(list.body).not.toContain(secret.slice(6));

    const item = await newCode();
    await t.request({ method: 'PATCH', url: `/v1/qr/${item.id}`, key, payload: { title: 'Renamed' } });
    await t.request({ method: 'PATCH', url: `/v1/qr/${item.id}`, key, payload: { active: false } });
    await t.request({ method: 'PATCH', url: `/v1/qr/${item.id}`, key, payload: { active: true } });
    await t.request({ method: 'DELETE', url: `/v1/qr/${item.id}`, key });
    const got = await rx.waitFor(5);
    const wh = new Webhook(secret);
    const types = got.map((r) => {
      const payload = wh.verify(r.body, r.headers as Record<string, string>) as { type: string; data: { id: string; code: string } };
      expect(payload.data.id).toBe(item.id);
      return payload.type;
    });
    expect(types.sort()).toEqual(['item.created', 'item.deleted', 'item.paused', 'item.resumed', 'item.updated']);
    const wrong = new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`);
    expect(() => wrong.verify(got[0]!.body, got[0]!.headers as Record<string, string>)).toThrow();
    const deliveries = await until(
      async () =>
        (await t.request({ method: 'GET', url: `/v1/webhooks/${webhook.id}/deliveries`, key })).json().deliveries as {
          id: string;
          status: string;
          responseStatus: number;
        }[],
      (list) => list.length === 5 && list.every((d) => d.status === 'delivered' && d.responseStatus === 200),
    );
    expect(new Set(got.map((r) => r.headers['webhook-id']))).toEqual(new Set(deliveries.map((d) => d.id)));
  });

  it('puts no password, visitor hash or Wi-Fi payload in item events, and honours the tag filter', async () => {
    await create({ url: rx.url, events: ['item.created'], filter: { tags: ['print'] } });
    await newCode(key, { tags: ['web'] });
    const wifi = await t.request({
      method: 'POST',
      url: '/v1/qr',
      key,
      payload: { title: 'Wifi', contentType: 'wifi', wifiSsid: 'Office', wifiPass: 'hunter22secret', tags: ['print'] },
    });
    expect(wifi.statusCode).toBe(201);
    const [r] = await rx.waitFor(1);
    await new Promise((res) => setTimeout(res, 800));
    expect(rx.received).toHaveLength(1);
    expect(r!.body).not.toContain('hunter22secret');
    expect(JSON.parse(r!.body)).toMatchObject({ type: 'item.created', data: { contentType: 'wifi', url: null, tags: ['print'] } });
  });

  it('tells batch creates, CSV imports and bulk pauses, resumes and deletes, each code once and only when its state changed', async () => {
    await create({ url: rx.url, events: ['item.created', 'item.paused', 'item.resumed', 'item.deleted'] });
    const batch = await t.request({
      method: 'POST',
      url: '/v1/qr/batch',
      key,
      payload: { items: [1, 2, 3].map((i) => ({ title: `b${i}`, url: `https://example.com/${i}` })) },
    });
    expect(batch.statusCode).toBe(201);
    const imported = await t.request({
      method: 'POST',
      url: '/v1/qr/import',
      key,
      payload: 'title,url\ni1,https://example.com/i1\ni2,https://example.com/i2\n',
      headers: { 'content-type': 'text/csv' },
    });
    expect(imported.statusCode).toBe(201);
    await rx.waitFor(5);
    const ids = (await t.request({ method: 'GET', url: '/v1/qr', key })).json().items.map((i: { id: string }) => i.id) as string[];
    await t.request({ method: 'PATCH', url: `/v1/qr/${ids[0]}`, key, payload: { active: false } });
    await rx.waitFor(6);
    const bulk = (action: string) => t.request({ method: 'POST', url: '/v1/qr/bulk', key, payload: { action, ids: ids.slice(0, 3) } });
    expect((await bulk('pause')).statusCode).toBe(200); // the first is paused already: 2 events
    expect((await bulk('resume')).statusCode).toBe(200); // 3 events
    expect((await bulk('delete')).statusCode).toBe(200); // 3 events
    const all = await rx.waitFor(14);
    await new Promise((r) => setTimeout(r, 700));
    expect(rx.received).toHaveLength(14);
    const count = (type: string) => all.filter((r) => JSON.parse(r.body).type === type).length;
    expect([count('item.created'), count('item.paused'), count('item.resumed'), count('item.deleted')]).toEqual([5, 3, 3, 3]);
  });

  it('keeps at most 10 attempts in flight per endpoint; the rest waits in the database', async () => {
    let open = 0;
    let most = 0;
    rx.answer = () => {
      open++;
      most = Math.max(most, open);
      setTimeout(() => open--, 300);
      return { status: 200, delayMs: 300 };
    };
    await create({ url: rx.url, events: ['item.created'] });
    const items = Array.from({ length: 30 }, (_, i) => ({ title: `k${i}`, url: `https://example.com/${i}` }));
    expect((await t.request({ method: 'POST', url: '/v1/qr/batch', key, payload: { items } })).statusCode).toBe(201);
    await rx.waitFor(30);
    expect(most).toBeLessThanOrEqual(10);
    expect(most).toBeGreaterThan(1);
  });

  it('retries a failing receiver with the same webhook-id until it answers 2xx, and logs each status', async () => {
    rx.answer = (_r, i) => (i < 2 ? { status: 500, body: 'x'.repeat(5000) } : { status: 204 });
    const { webhook } = (await create({ url: rx.url, events: ['item.created'] })).json();
    await newCode();
    const got = await rx.waitFor(3);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const d = await until(
      async () => (await t.request({ method: 'GET', url: `/v1/webhooks/${webhook.id}/deliveries`, key })).json().deliveries[0],
      (d) => d.status === 'delivered',
    );
    expect(d).toMatchObject({ attempts: 3, responseStatus: 204 });
    const ep = (await t.request({ method: 'GET', url: `/v1/webhooks/${webhook.id}`, key })).json().webhook;
    expect(ep).toMatchObject({ enabled: true, consecutiveFailures: 0 });
  });

  it('keeps at most 1 KiB of an answer and gives up after the last retry', async () => {
    rx.answer = () => ({ status: 500, body: 'é'.repeat(3000) });
    const { webhook } = (await create({ url: rx.url, events: ['item.created'] })).json();
    await newCode();
    const d = await until(
      async () => (await t.request({ method: 'GET', url: `/v1/webhooks/${webhook.id}/deliveries`, key })).json().deliveries[0],
      (d) => d?.status === 'failed',
    );
    expect(d.attempts).toBe(4);
    expect(Buffer.byteLength(d.response)).toBeLessThanOrEqual(1024);
    expect(d.nextAttemptAt).toBeNull();
  });

  it('disables an endpoint that answers 410, says so, and sends what waited once enabled again', async () => {
    rx.answer = (_r, i) => (i === 0 ? { status: 410 } : { status: 200 });
    const { webhook } = (await create({ url: rx.url, events: ['item.created'] })).json();
    await newCode();
    const ep = await until(
      async () => (await t.request({ method: 'GET', url: `/v1/webhooks/${webhook.id}`, key })).json().webhook,
      (w) => w.enabled === false,
    );
    expect(ep.disabledReason).toBe('gone');
    await newCode(); // not sent while disabled
    await new Promise((r) => setTimeout(r, 700));
    expect(rx.received).toHaveLength(1);
    const on = await t.request({ method: 'PATCH', url: `/v1/webhooks/${webhook.id}`, key, payload: { enabled: true } });
    expect(on.json().webhook).toMatchObject({ enabled: true, disabledReason: null });
    await rx.waitFor(2);
  });

  it('does not follow a redirect: a 3xx is a failed attempt, and the Location is never requested', async () => {
    const target = await startReceiver();
    try {
      rx.answer = () => ({ status: 200 });
      const { webhook } = (await create({ url: rx.url, events: ['item.created'] })).json();
      rx.answer = () => ({ status: 307, body: target.url });
      await newCode();
      const d = await until(
        async () => (await t.request({ method: 'GET', url: `/v1/webhooks/${webhook.id}/deliveries`, key })).json().deliveries[0],
        (d) => d?.responseStatus === 307,
      );
      expect(d).toMatchObject({ error: 'redirects are not followed' });
      expect(d.status).not.toBe('delivered');
      expect(target.received).toHaveLength(0);
    } finally {
      await target.close();
    }
  });

  it('purges deliveries older than 30 days and the bodies no delivery uses', async () => {
    await create({ url: rx.url, events: ['item.created'] });
    await newCode();
    await rx.waitFor(1);
    const deliveries = t.services.webhookDeliveries;
    expect(await deliveries.purge(new Date(Date.now() + 29 * 86_400_000))).toBe(0);
    expect(await deliveries.purge(new Date(Date.now() + 31 * 86_400_000))).toBe(1);
    expect(await t.db.kysely.selectFrom('webhook_messages').select('seq').execute()).toHaveLength(0);
    expect(await t.db.kysely.selectFrom('webhook_payloads').select('id').execute()).toHaveLength(0);
  });

  it('pages the delivery log newest first, and checks a changed URL like a new one', async () => {
    const { webhook } = (await create({ url: rx.url, events: ['item.created'] })).json();
    for (let i = 0; i < 3; i++) await t.request({ method: 'POST', url: `/v1/webhooks/${webhook.id}/test`, key });
    await rx.waitFor(3);
    const first = (await t.request({ method: 'GET', url: `/v1/webhooks/${webhook.id}/deliveries?limit=2`, key })).json();
    expect(first.deliveries).toHaveLength(2);
    expect(first.nextCursor).not.toBeNull();
    const rest = (
      await t.request({ method: 'GET', url: `/v1/webhooks/${webhook.id}/deliveries?limit=2&cursor=${first.nextCursor}`, key })
    ).json();
    expect(rest.deliveries).toHaveLength(1);
    expect(rest.nextCursor).toBeNull();
    const ids = [...first.deliveries, ...rest.deliveries].map((d: { id: string }) => d.id);
    expect(new Set(ids).size).toBe(3);
    expect((await t.request({ method: 'GET', url: `/v1/webhooks/${webhook.id}/deliveries?limit=0`, key })).statusCode).toBe(400);
    const bad = await t.request({ method: 'PATCH', url: `/v1/webhooks/${webhook.id}`, key, payload: { url: 'gopher://example.com/' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/^url: /);
    const events = await t.request({ method: 'PATCH', url: `/v1/webhooks/${webhook.id}`, key, payload: { events: [] } });
    expect(events.json().error).toMatch(/^events: /);
  });

  it('disables an endpoint after 20 failures in a row', async () => {
    rx.answer = () => ({ status: 503 });
    const { webhook } = (await create({ url: rx.url, events: ['item.created'] })).json();
    // 20 codes, each failing its 4 attempts: the endpoint is disabled at the 20th failure.
    await t.request({
      method: 'POST',
      url: '/v1/qr/batch',
      key,
      payload: { items: Array.from({ length: 20 }, (_, i) => ({ title: `c${i}`, url: `https://example.com/${i}` })) },
    });
    const ep = await until(
      async () => (await t.request({ method: 'GET', url: `/v1/webhooks/${webhook.id}`, key })).json().webhook,
      (w) => w.enabled === false,
    );
    expect(ep).toMatchObject({ disabledReason: 'failures' });
    expect(ep.consecutiveFailures).toBeGreaterThanOrEqual(20);
  });

  it('rotates the secret: during the overlap both secrets sign, and each verifies alone', async () => {
    const { webhook, secret: old } = (await create({ url: rx.url, events: ['item.created'] })).json();
    const rot = await t.request({ method: 'POST', url: `/v1/webhooks/${webhook.id}/rotate-secret`, key });
    expect(rot.statusCode).toBe(200);
    const fresh = rot.json().secret as string;
    expect(fresh).not.toBe(old);
    expect(Date.parse(rot.json().webhook.previousSecretUntil) - Date.now()).toBeGreaterThan(23 * 3600_000);
    await newCode();
    const [r] = await rx.waitFor(1);
    expect(String(r!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const s of [old, fresh]) expect(() => new Webhook(s).verify(r!.body, r!.headers as Record<string, string>)).not.toThrow();
  });

  it('sends a test event and resends a delivery with the same id', async () => {
    const { webhook, secret } = (await create({ url: rx.url, events: ['scan.created'] })).json();
    expect((await t.request({ method: 'POST', url: `/v1/webhooks/${webhook.id}/test`, key })).statusCode).toBe(202);
    const [r] = await rx.waitFor(1);
    expect(new Webhook(secret).verify(r!.body, r!.headers as Record<string, string>)).toMatchObject({ type: 'webhook.test' });
    const id = r!.headers['webhook-id'] as string;
    await until(
      async () => (await t.request({ method: 'GET', url: `/v1/webhooks/${webhook.id}/deliveries`, key })).json().deliveries[0],
      (d) => d.status === 'delivered',
    );
    const resent = await t.request({ method: 'POST', url: `/v1/webhooks/${webhook.id}/deliveries/${id}/resend`, key });
    expect(resent.statusCode).toBe(200);
    const again = await rx.waitFor(2);
    expect(again[1]!.headers['webhook-id']).toBe(id);
    expect((await t.request({ method: 'POST', url: `/v1/webhooks/${webhook.id}/deliveries/msg_nope/resend`, key })).statusCode).toBe(404);
  });

  it('refuses bad bodies with the field named, and an 11th endpoint', async () => {
    const bad = async (payload: Record<string, unknown>, field: string) => {
      const res = await create(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toContain(field);
    };
    await bad({ events: ['item.created'] }, 'url');
    await bad({ url: 'ftp://example.com/x', events: ['item.created'] }, 'url');
    await bad({ url: 'not a url', events: ['item.created'] }, 'url');
    await bad({ url: rx.url, events: [] }, 'events');
    await bad({ url: rx.url, events: ['scan.deleted'] }, 'events');
    await bad({ url: rx.url, events: ['item.created', 'item.created'] }, 'events');
    await bad({ url: rx.url, events: ['item.created'], filter: { itemIds: ['00000000-0000-4000-8000-000000000000'] } }, 'filter.itemIds');
    await bad({ url: rx.url, events: ['item.created'], filter: { tags: [''] } }, 'filter.tags');
    await bad({ url: rx.url, events: ['item.created'], extra: 1 }, 'extra');
    await bad({ url: rx.url, events: ['item.created'], description: 'x'.repeat(201) }, 'description');
    for (let i = 0; i < 10; i++) expect((await create({ url: rx.url, events: ['item.created'] })).statusCode).toBe(201);
    const eleventh = await create({ url: rx.url, events: ['item.created'] });
    expect(eleventh.statusCode).toBe(409);
    expect(eleventh.json().error).toContain('at most 10');
  });

  it('needs the webhooks scopes, lets owners (not editors) manage them in the web app, and keeps accounts apart', async () => {
    const qrOnly = await t.key('acme', 'qr:read,qr:write');
    expect((await create({ url: rx.url, events: ['item.created'] }, qrOnly)).statusCode).toBe(403);
    const reader = await t.key('acme', 'webhooks:read');
    expect((await t.request({ method: 'GET', url: '/v1/webhooks', key: reader })).statusCode).toBe(200);
    expect((await create({ url: rx.url, events: ['item.created'] }, reader)).statusCode).toBe(403);

    const { webhook } = (await create({ url: rx.url, events: ['item.created'] })).json();
    const other = await t.key('globex', ALL);
    expect((await t.request({ method: 'GET', url: `/v1/webhooks/${webhook.id}`, key: other })).statusCode).toBe(404);
    expect((await t.request({ method: 'DELETE', url: `/v1/webhooks/${webhook.id}`, key: other })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/v1/webhooks/${webhook.id}/deliveries`, key: other })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: '/v1/webhooks', key: other })).json().webhooks).toEqual([]);
    // Another account's code: never told to acme's endpoint, and not a filter acme may name.
    const theirs = await newCode(other);
    expect((await create({ url: rx.url, events: ['item.created'], filter: { itemIds: [theirs.id] } })).statusCode).toBe(400);
    await new Promise((r) => setTimeout(r, 700));
    expect(rx.received).toHaveLength(0);

    const owner = await setupOwner(t);
    const mine = await owner.request({ method: 'POST', url: '/v1/webhooks', payload: { url: rx.url, events: ['item.created'] } });
    expect(mine.statusCode).toBe(201);
    const editor = await inviteMember(t, owner, 'editor@example.com', 'editor');
    const refused = await editor.request({ method: 'GET', url: '/v1/webhooks' });
    expect(refused.statusCode).toBe(403);
  });
});

describe('webhook destinations', () => {
  it('refuses http and private addresses unless WEBHOOK_ALLOW_PRIVATE is set, when saved and when delivering', async () => {
    const t = await makeTestApp();
    const rx = await startReceiver();
    try {
      const key = await t.key('acme', ALL);
      const post = (url: string) => t.request({ method: 'POST', url: '/v1/webhooks', key, payload: { url, events: ['item.created'] } });
      expect((await post('http://example.com/hook')).json().error).toMatch(/^url: must use https/);
      for (const u of [
        'https://127.0.0.1/x',
        'https://10.1.2.3/x',
        'https://[::1]/x',
        'https://169.254.169.254/latest',
        'https://[::ffff:127.0.0.1]/x',
        'https://localhost/x',
        'https://100.64.0.1/x',
        'https://198.18.0.1/x',
        'https://224.0.0.1/x',
        'https://255.255.255.255/x',
        'https://0.0.0.0/x',
      ])
        expect((await post(u)).statusCode, u).toBe(400);
      // A name that was public when saved and resolves to loopback at delivery time (rebinding):
      // refused then, without connecting. The row is changed under the API, as DNS would be.
      const ok = await post('https://receiver.example.com/hook');
      expect(ok.statusCode).toBe(201);
      const { webhook } = ok.json();
      const port = new URL(rx.url).port;
      await t.db.kysely
        .updateTable('webhook_endpoints')
        .set({ url: `https://localhost:${port}/hook` })
        .where('id', '=', webhook.id)
        .execute();
      await t.request({ method: 'POST', url: `/v1/webhooks/${webhook.id}/test`, key });
      const d = await until(
        async () => (await t.request({ method: 'GET', url: `/v1/webhooks/${webhook.id}/deliveries`, key })).json().deliveries[0],
        (d) => d?.error !== null && d?.error !== undefined,
      );
      expect(d.error).toMatch(/^refused: localhost resolves to (127\.0\.0\.1|::1), a private, loopback or link-local address/);
      expect(d.responseStatus).toBeNull();
      // Nor is a plain http URL sent to without the flag, whatever is stored.
      await t.db.kysely.updateTable('webhook_endpoints').set({ url: rx.url }).where('id', '=', webhook.id).execute();
      await t.request({ method: 'POST', url: `/v1/webhooks/${webhook.id}/test`, key });
      const d2 = await until(
        async () => (await t.request({ method: 'GET', url: `/v1/webhooks/${webhook.id}/deliveries`, key })).json().deliveries[0],
        (d) => d?.error !== null && d?.error !== undefined,
      );
      expect(d2.error).toMatch(/^refused: only https/);
      expect(rx.received).toHaveLength(0);
    } finally {
      await t.close();
      await rx.close();
    }
  });
});
