// Answers the framework and its plugins give, in our words: body limits per route, the docs page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await makeTestApp();
  key = await t.key('bodies');
});
afterAll(() => t.close());

describe('body limits', () => {
  it('a 16 MiB route says 16 MiB when its body is larger, a 1 MiB route says 1 MiB', async () => {
    const big = 'x'.repeat(16 * 1024 * 1024 + 1);
    const batch = await t.request({
      method: 'POST',
      url: '/v1/qr/batch',
      key,
      payload: big,
      headers: { 'content-type': 'application/json' },
    });
    expect(batch.statusCode).toBe(413);
    expect(batch.json()).toEqual({ error: 'body: must be at most 16 MiB' });
    const csv = await t.request({ method: 'POST', url: '/v1/qr/import', key, payload: big, headers: { 'content-type': 'text/csv' } });
    expect(csv.statusCode).toBe(413);
    expect(csv.json()).toEqual({ error: 'body: must be at most 16 MiB' });
    const one = await t.request({
      method: 'POST',
      url: '/v1/qr',
      key,
      payload: 'x'.repeat(1024 * 1024 + 1),
      headers: { 'content-type': 'application/json' },
    });
    expect(one.json()).toEqual({ error: 'body: must be at most 1 MiB' });
  });
});

describe('the API reference', () => {
  it('sends /docs/static/index.html with a query to /docs/, not to itself', async () => {
    const res = await t.request({ method: 'GET', url: '/docs/static/index.html?x' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/docs/?x');
    expect((await t.request({ method: 'GET', url: '/docs/static/index.html' })).headers.location).toBe('/docs/');
  });
});
