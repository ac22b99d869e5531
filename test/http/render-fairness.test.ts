// The render pool is shared fairly between accounts: one account alone may fill the queue, but an
// account past its share yields a place to another, and images someone waits for go before the
// images of ZIP exports. One account's 17
// parallel ZIP exports used to fill the whole pool, and every other account's previews answered 503.
import { afterEach, describe, expect, it } from 'vitest';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

let t: TestApp;
afterEach(() => t.close());

const preview = (key: string, i: number) =>
  t.request({
    method: 'POST',
    url: '/v1/qr/preview?format=png&size=1500',
    key,
    payload: { data: `https://example.com/preview/${i}`, design: { dotsStyle: 'classy' } },
  });

describe('render pool fairness', () => {
  it("one account's burst of previews leaves room in the queue for another account's preview", async () => {
    t = await makeTestApp({ RENDER_WORKERS: '1', RENDER_QUEUE: '8' });
    const busy = await t.key('busy');
    const quiet = await t.key('quiet');
    const burst = Array.from({ length: 20 }, (_, i) => preview(busy, i));
    await new Promise((r) => setTimeout(r, 300));
    // Sent while the burst waits: before, the burst held the worker and all 8 places.
    const other = await preview(quiet, 1000);
    const answers = await Promise.all(burst);
    expect(other.statusCode, other.body).toBe(200);
    // The busy account kept the worker and 7 of the 8 places (its newest gave way to the quiet
    // one; on a loaded machine some may wait past the pool's wall limit); the rest were told to retry.
    expect(answers.filter((r) => r.statusCode === 200).length).toBeGreaterThanOrEqual(1);
    expect(answers.filter((r) => r.statusCode === 503).length).toBeGreaterThan(0);
  }, 120_000);

  it('one account alone may fill the whole queue: a codes list of thumbnails is not refused', async () => {
    t = await makeTestApp({ RENDER_WORKERS: '1', RENDER_QUEUE: '8' });
    const key = await t.key('alone');
    // A worker and the 8 places: nine images at once, all drawn (a share of 2 would refuse 6).
    const answers = await Promise.all(Array.from({ length: 9 }, (_, i) => preview(key, i)));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(9).fill(200));
  }, 120_000);

  it("other accounts' ZIP exports do not make an account's previews answer 503", async () => {
    t = await makeTestApp({ RENDER_WORKERS: '1', RENDER_QUEUE: '2' });
    // Five accounts export ZIPs (one export each, the most an account may run).
    const exporters = await Promise.all(Array.from({ length: 5 }, (_, i) => t.key(`exporter-${i}`)));
    for (const key of exporters) {
      const items = Array.from({ length: 4 }, (_, i) => ({ title: `Ticket ${i}`, url: `https://example.com/t/${i}`, resolution: 1500 }));
      expect((await t.request({ method: 'POST', url: '/v1/qr/batch', key, payload: { items } })).statusCode).toBe(201);
    }
    const quiet = await t.key('previewer');
    const exports = exporters.map((key) => t.request({ method: 'GET', url: '/v1/qr/export.zip', key }));
    // Let the exports fill the worker and the queue.
    await new Promise((r) => setTimeout(r, 300));
    const previews = [];
    for (let i = 0; i < 3; i++) previews.push(await preview(quiet, i));
    expect(previews.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    for (const res of await Promise.all(exports)) expect(res.statusCode).toBe(200);
  }, 240_000);
});
