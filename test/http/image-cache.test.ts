// The cache of drawn images is per account: a shared entry answered another tenant's
// identical image at once, telling them by the timing that someone had drawn it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(() => t.close());

describe('drawn-image cache', () => {
  it('answers an account again from its own cache, never from another account’s', async () => {
    const [a, b] = [await t.key('cache-a'), await t.key('cache-b')];
    const renderer = t.services.renderer;
    const real = renderer.render.bind(renderer);
    let renders = 0;
    renderer.render = ((job: Parameters<typeof real>[0]) => {
      renders++;
      return real(job);
    }) as typeof renderer.render;
    const preview = async (key: string) => {
      const res = await t.request({
        method: 'POST',
        url: '/v1/qr/preview?format=png&size=500',
        key,
        payload: { data: 'https://example.com/secret-menu', design: { dotsStyle: 'classy' } },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res;
    };
    expect((await preview(a)).statusCode).toBe(200);
    expect((await preview(a)).statusCode).toBe(200);
    expect(renders).toBe(1);
    expect((await preview(b)).statusCode).toBe(200);
    expect(renders).toBe(2);
  });
});
