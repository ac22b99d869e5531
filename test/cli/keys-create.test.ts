import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, runCliAsync, startServer } from '../support/processes.ts';
import { tempDir } from '../support/test-app.ts';

const runCli = runCliAsync;

const PASSWORD = 'correct horse battery';
const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const accountNames = async (env: Record<string, string>) =>
  (JSON.parse((await runCli(['accounts', 'list', '--json'], env)).stdout) as { name: string }[]).map((a) => a.name);

let dir: string;
beforeAll(() => {
  dir = tempDir('qrtrack-keys-');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// Every case runs real processes, a few seconds each on a busy machine.
describe('qrtrack keys create without --account', { timeout: 180_000 }, () => {
  let server: RunningServer | undefined;
  afterAll(() => server?.stop());

  it("makes the key for the web owner's account, which the owner then sees under API keys", async () => {
    const env: Record<string, string> = { DATABASE_URL: `sqlite:${path.join(dir, 'web.db')}` };
    server = await startServer(env);
    env.PUBLIC_BASE_URL = server.url;
    const token = (await runCli(['setup-link'], env)).stdout.trim().split('/').pop();
    const setup = await post(`${server.url}/v1/setup`, { token, accountName: 'Café Rosa', email: 'rosa@example.com', password: PASSWORD });
    expect(setup.status).toBe(201);

    const created = await runCli(['keys', 'create', '--scopes', 'qr:read,qr:write'], env);
    expect(created.status, created.stderr).toBe(0);
    expect(created.stderr).toContain('for account "Café Rosa"');
    const key = created.stdout.trim().split('\n').at(-1)!;
    expect(await accountNames(env)).toEqual(['Café Rosa']);

    // The key works, and the owner sees it (and the code it made) in the web app's account.
    const made = await post(`${server.url}/v1/qr`, { title: 'Menu', url: 'https://example.com/menu' }, { authorization: `Bearer ${key}` });
    expect(made.status).toBe(201);
    const cookie = (
      (await post(`${server.url}/v1/session`, { email: 'rosa@example.com', password: PASSWORD })).headers.get('set-cookie') ?? ''
    ).split(';')[0]!;
    const keys = (await (await fetch(`${server.url}/v1/account/keys`, { headers: { cookie } })).json()) as { keys: { scopes: string[] }[] };
    expect(keys.keys.map((k) => k.scopes)).toEqual([['qr:read', 'qr:write']]);
    const codes = (await (await fetch(`${server.url}/v1/qr`, { headers: { cookie } })).json()) as { items: { title: string }[] };
    expect(codes.items.map((i) => i.title)).toEqual(['Menu']);
  });

  it('with no account yet, refuses and says how to make one; nothing is created', async () => {
    const env = { DATABASE_URL: `sqlite:${path.join(dir, 'empty.db')}` };
    const res = await runCli(['keys', 'create', '--scopes', 'qr:read'], env);
    expect(res.status).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(
      /^qrtrack: keys create: there is no account yet; create the owner with the setup link .* or name a new account with --account NAME$/m,
    );
    expect(await accountNames(env)).toEqual([]);
  });

  it('with several accounts, refuses and names them; --account picks one', async () => {
    const env = { DATABASE_URL: `sqlite:${path.join(dir, 'two.db')}` };
    expect((await runCli(['accounts', 'create', 'Home'], env)).status).toBe(0);
    expect((await runCli(['accounts', 'create', 'Shop'], env)).status).toBe(0);
    const res = await runCli(['keys', 'create', '--scopes', 'qr:read'], env);
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('qrtrack: keys create: 2 accounts ("Home", "Shop"); say which with --account NAME');

    const named = await runCli(['keys', 'create', '--account', 'Shop', '--scopes', 'qr:read', '--json'], env);
    expect(named.status, named.stderr).toBe(0);
    expect(JSON.parse(named.stdout)).toMatchObject({ account: 'Shop', scopes: ['qr:read'] });
    expect(await accountNames(env)).toEqual(['Home', 'Shop']);
  });
});
