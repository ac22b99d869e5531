// The first run as a person sees it: the server prints a setup link, the CLI makes
// setup and reset links, each works once.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, runCli, startServer } from '../support/processes.ts';
import { tempDir } from '../support/test-app.ts';

const PASSWORD = 'correct horse battery';
let server: RunningServer;
let env: Record<string, string>;

beforeAll(async () => {
  const dir = tempDir();
  env = { DATABASE_URL: `sqlite:${path.join(dir, 'q.db')}` };
  server = await startServer(env);
  env.PUBLIC_BASE_URL = server.url;
});
afterAll(() => server?.stop());

async function waitForLine(): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const line = server
      .output()
      .split('\n')
      .find((l) => l.includes('first run'));
    if (line) return line;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no setup line in: ${server.output()}`);
}

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('first run', () => {
  it('prints one line with a setup link that creates the owner once; setup-link then refuses', async () => {
    const line = await waitForLine();
    expect(line).toMatch(/^qrtrack: first run: open http:\/\/127\.0\.0\.1:\d+\/app\/setup\/[A-Za-z0-9_-]{43} to create the owner account/);
    const token = /\/app\/setup\/([A-Za-z0-9_-]{43})/.exec(line)?.[1] as string;
    const viaCli = runCli(['setup-link'], env);
    expect(viaCli.status).toBe(0);
    expect(viaCli.stdout.trim()).toMatch(/\/app\/setup\/[A-Za-z0-9_-]{43}$/);
    const first = await post(`${server.url}/v1/setup`, { token, accountName: 'Home', email: 'me@example.com', password: PASSWORD });
    expect(first.status).toBe(201);
    const second = await post(`${server.url}/v1/setup`, { token, accountName: 'Other', email: 'x@example.com', password: PASSWORD });
    expect(second.status).toBe(410);
    const cliToken = viaCli.stdout.trim().split('/').pop();
    expect(
      (await post(`${server.url}/v1/setup`, { token: cliToken, accountName: 'Other', email: 'x@example.com', password: PASSWORD })).status,
    ).toBe(410);
    const refused = runCli(['setup-link'], env);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/already has users/);
  });

  it('users reset-link makes a link that sets a new password once', async () => {
    const missing = runCli(['users', 'reset-link', 'nobody@example.com'], env);
    expect(missing.status).toBe(2);
    const res = runCli(['users', 'reset-link', 'ME@example.com'], env);
    expect(res.status).toBe(0);
    const token = res.stdout.trim().split('/').pop();
    expect((await post(`${server.url}/v1/password-resets/${token}`, { password: 'a new long password' })).status).toBe(200);
    expect((await post(`${server.url}/v1/session`, { email: 'me@example.com', password: 'a new long password' })).status).toBe(200);
    expect((await post(`${server.url}/v1/password-resets/${token}`, { password: 'yet another one!' })).status).toBe(410);
  });

  it('keys made with the CLI show in the account area of the account that adopted them', async () => {
    const created = runCli(['keys', 'create', '--account', 'Home', '--scopes', 'qr:read'], env);
    expect(created.status).toBe(0);
    const signIn = await post(`${server.url}/v1/session`, { email: 'me@example.com', password: 'a new long password' });
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const keys = await (await fetch(`${server.url}/v1/account/keys`, { headers: { cookie } })).json();
    expect(keys.keys).toHaveLength(1);
    expect(keys.keys[0]).toMatchObject({ scopes: ['qr:read'], createdBy: null });
  });
});
