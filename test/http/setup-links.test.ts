// Setup links expire, and the link a server start prints replaces the earlier ones
// (every start added one, and each worked forever).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeSetupLink } from '../../src/first-run.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp();
});
afterEach(async () => {
  vi.useRealTimers();
  await t.close();
});

const tokenOf = (url: string | null) => (url ?? '').split('/').pop() as string;
const check = (token: string) => t.request({ method: 'GET', url: `/v1/setup/${token}` });

describe('setup links', () => {
  it('expire after 24 hours', async () => {
    const token = tokenOf(await makeSetupLink(t.services.users, t.services.oneTimeLinks, t.config.publicBaseUrl));
    expect((await check(token)).statusCode).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 24 * 3600_000 + 1000);
    const late = await check(token);
    expect(late.statusCode).toBe(410);
    expect(late.json().error).toMatch(/expired/);
  });

  it('a server start’s link withdraws the earlier ones', async () => {
    const make = () => makeSetupLink(t.services.users, t.services.oneTimeLinks, t.config.publicBaseUrl, { replaceEarlier: true });
    const first = tokenOf(await make());
    const second = tokenOf(await make());
    expect((await check(first)).statusCode).toBe(410);
    expect((await check(second)).statusCode).toBe(200);
  });
});
