// On a real domain (issue #29): the public address asked for at first run, custom domains
// verified by a TXT record against a DNS server the test starts on loopback, short links
// answered by Host, isolation between accounts, and the on-demand TLS ask.
import http from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type DnsStub, startDnsStub } from '../support/dns-stub.ts';
import { startServer } from '../support/processes.ts';
import { PASSWORD, type SignedIn, sessionFrom, setupOwner, setupToken } from '../support/sessions.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

let dns: DnsStub;
beforeAll(async () => {
  dns = await startDnsStub();
});
afterAll(async () => {
  await dns.close();
});

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  dns.txt.clear();
});

type DomainAnswer = {
  id: string;
  hostname: string;
  status: string;
  verification: { name: string; value: string };
  lastError: string | null;
};

async function app(env: Record<string, string> = {}): Promise<TestApp> {
  t = await makeTestApp({ DNS_RESOLVERS: dns.address, SIGNUP: 'open', ...env });
  return t;
}

async function signUp(app: TestApp, accountName: string, email: string): Promise<SignedIn> {
  return sessionFrom(app, await app.request({ method: 'POST', url: '/v1/signup', payload: { accountName, email, password: PASSWORD } }));
}

/** Adds the domain and makes it active: its TXT record served by the stub, then verified. */
async function activeDomain(owner: SignedIn, hostname: string): Promise<DomainAnswer> {
  const added = await owner.request({ method: 'POST', url: '/v1/domains', payload: { hostname } });
  expect(added.statusCode, added.body).toBe(201);
  const domain = added.json().domain as DomainAnswer;
  dns.txt.set(domain.verification.name, [domain.verification.value]);
  const verified = await owner.request({ method: 'POST', url: `/v1/domains/${domain.id}/verify` });
  expect(verified.json().domain.status).toBe('active');
  return verified.json().domain as DomainAnswer;
}

async function createCode(owner: SignedIn, payload: Record<string, unknown> = {}) {
  const res = await owner.request({
    method: 'POST',
    url: '/v1/qr',
    payload: { title: 'Poster', url: 'https://example.com/menu', ...payload },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().item as { id: string; code: string; shortUrl: string; domain: string | null };
}

function scan(app: TestApp, code: string, host: string) {
  return app.request({ method: 'GET', url: `/r/${code}`, headers: { host } });
}

describe('the public address', () => {
  it('is asked for at first run, stored, and short links are built on it', async () => {
    const a = await app({ PUBLIC_BASE_URL: '' });
    const before = (await a.request({ method: 'GET', url: '/v1/instance' })).json();
    expect(before.publicAddress).toMatchObject({ url: 'http://localhost:3000', source: 'default' });
    expect(before.publicAddress.warning).toMatch(/only this machine can reach.*cannot open it/);

    const token = await setupToken(a);
    const payload = { token, accountName: 'Acme', email: 'o@example.com', password: PASSWORD };
    const bad = await a.request({
      method: 'POST',
      url: '/v1/setup',
      payload: { ...payload, publicBaseUrl: 'https://qr.acme.example/app?x=1' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/^publicBaseUrl: /);
    const done = await a.request({ method: 'POST', url: '/v1/setup', payload: { ...payload, publicBaseUrl: 'https://QR.acme.example/' } });
    expect(done.statusCode).toBe(201);
    // An https address: the session cookie is the Secure __Host- one from now on.
    expect(done.cookies.map((c) => c.name)).toContain('__Host-qrtrack_session');
    const after = (await a.request({ method: 'GET', url: '/v1/instance' })).json();
    expect(after.publicAddress).toEqual({
      url: 'https://qr.acme.example',
      source: 'setup',
      warning: null,
      previous: ['http://localhost:3000'],
    });
    const key = await a.key('Acme');
    const res = await a.request({ method: 'POST', url: '/v1/qr', key, payload: { title: 'Poster', url: 'https://example.com/menu' } });
    const item = res.json().item;
    expect(item.shortUrl).toBe(`https://qr.acme.example/r/${item.code}`);
    expect(item.domain).toBeNull();
  });

  it('PUBLIC_BASE_URL overrides the stored one, and the owner cannot change it then', async () => {
    const a = await app({ PUBLIC_BASE_URL: 'http://192.168.1.20:3000' });
    const owner = await setupOwner(a);
    const instance = (await a.request({ method: 'GET', url: '/v1/instance' })).json();
    expect(instance.publicAddress).toMatchObject({ url: 'http://192.168.1.20:3000', source: 'env' });
    expect(instance.publicAddress.warning).toMatch(/only this network can reach/);
    const res = await owner.request({
      method: 'PUT',
      url: '/v1/instance/public-address',
      payload: { publicBaseUrl: 'https://qr.example.com' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatch(/^publicBaseUrl: PUBLIC_BASE_URL sets the address/);
  });

  it('an owner changes it; codes printed with the old address keep answering there', async () => {
    const a = await app({ PUBLIC_BASE_URL: '' });
    const owner = await setupOwner(a);
    await owner.request({ method: 'PUT', url: '/v1/instance/public-address', payload: { publicBaseUrl: 'https://old.example.com' } });
    const item = await createCode(owner);
    expect(item.shortUrl).toBe(`https://old.example.com/r/${item.code}`);

    const changed = await owner.request({
      method: 'PUT',
      url: '/v1/instance/public-address',
      payload: { publicBaseUrl: 'https://new.example.com' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().publicAddress.previous[0]).toBe('https://old.example.com');
    const read = await owner.request({ method: 'GET', url: `/v1/qr/${item.id}` });
    expect(read.json().item.shortUrl).toBe(`https://new.example.com/r/${item.code}`);
    expect((await scan(a, item.code, 'old.example.com')).statusCode).toBe(302);
    expect((await scan(a, item.code, 'new.example.com')).statusCode).toBe(302);
    expect((await scan(a, item.code, 'elsewhere.example.com')).statusCode).toBe(404);
  });

  it('only an owner of the instance may change it', async () => {
    const a = await app({ PUBLIC_BASE_URL: '' });
    await setupOwner(a);
    const stranger = await signUp(a, 'Beta', 'b@example.com'); // owner of an account of their own
    const res = await stranger.request({
      method: 'PUT',
      url: '/v1/instance/public-address',
      payload: { publicBaseUrl: 'https://evil.example' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatch(/^role: only an owner of the instance/);
  });

  it('the server warns at start while the address is loopback', async () => {
    const server = await startServer({ DATABASE_URL: 'sqlite::memory:', LOG_FORMAT: 'json' });
    try {
      expect(server.output()).toMatch(/"level":40.*only this machine can reach/);
    } finally {
      await server.stop();
    }
  });
});

describe('custom domains', () => {
  it('are verified by their TXT record, looked up on the configured resolver', async () => {
    const a = await app();
    const owner = await setupOwner(a);
    const added = await owner.request({ method: 'POST', url: '/v1/domains', payload: { hostname: 'QR.Acme.Example.' } });
    expect(added.statusCode, added.body).toBe(201);
    const domain = added.json().domain as DomainAnswer;
    expect(domain).toMatchObject({ hostname: 'qr.acme.example', status: 'pending', verification: { name: '_qrtrack.qr.acme.example' } });
    expect(domain.verification.value).toMatch(/^qrtrack-verify=[A-Za-z0-9]{32}$/);

    const early = await owner.request({ method: 'POST', url: `/v1/domains/${domain.id}/verify` });
    expect(early.json().domain).toMatchObject({ status: 'pending', lastError: 'no TXT record found at _qrtrack.qr.acme.example' });
    dns.txt.set('_qrtrack.qr.acme.example', ['something-else']);
    const wrong = await owner.request({ method: 'POST', url: `/v1/domains/${domain.id}/verify` });
    expect(wrong.json().domain.lastError).toMatch(/holds another value/);
    dns.txt.set('_qrtrack.qr.acme.example', ['v=spf1 -all', domain.verification.value]);
    const ok = await owner.request({ method: 'POST', url: `/v1/domains/${domain.id}/verify` });
    expect(ok.json().domain).toMatchObject({ status: 'active', lastError: null });
    expect(ok.json().domain.verifiedAt).not.toBeNull();
    expect(dns.asked).toContain('_qrtrack.qr.acme.example');
    const list = await owner.request({ method: 'GET', url: '/v1/domains' });
    expect(list.json().domains.map((d: DomainAnswer) => d.status)).toEqual(['active']);
  });

  it('are re-checked on the timer: a pending one turns active, an active one whose record is gone stops serving', async () => {
    const a = await app();
    const owner = await setupOwner(a);
    const domain = (await owner.request({ method: 'POST', url: '/v1/domains', payload: { hostname: 'qr.acme.example' } })).json()
      .domain as DomainAnswer;
    dns.txt.set(domain.verification.name, [domain.verification.value]);
    const now = { tickMs: 1000, pendingEveryMs: 0, activeEveryMs: 0 };
    expect(await a.services.domainChecker.checkDue(now)).toBe(1);
    expect((await owner.request({ method: 'GET', url: `/v1/domains/${domain.id}` })).json().domain.status).toBe('active');
    const item = await createCode(owner, { domain: 'qr.acme.example' });
    expect((await scan(a, item.code, 'qr.acme.example')).statusCode).toBe(302);

    dns.txt.delete(domain.verification.name);
    for (let i = 0; i < 3; i++) await a.services.domainChecker.checkDue(now);
    const failed = (await owner.request({ method: 'GET', url: `/v1/domains/${domain.id}` })).json().domain;
    expect(failed).toMatchObject({ status: 'failed', lastError: 'no TXT record found at _qrtrack.qr.acme.example' });
    expect((await scan(a, item.code, 'qr.acme.example')).statusCode).toBe(404);
  });

  it('are for owners with a session only, and refuse bad hostnames and the instance’s own', async () => {
    const a = await app();
    const owner = await setupOwner(a);
    const key = await a.key('Acme', 'qr:read,qr:write');
    expect((await a.request({ method: 'GET', url: '/v1/domains', key })).statusCode).toBe(403);
    const invite = await owner.request({ method: 'POST', url: '/v1/account/invites', payload: { role: 'editor' } });
    const token = (invite.json() as { url: string }).url.split('/').pop();
    const editor = sessionFrom(
      a,
      await a.request({ method: 'POST', url: `/v1/invites/${token}/accept`, payload: { email: 'e@example.com', password: PASSWORD } }),
    );
    expect((await editor.request({ method: 'GET', url: '/v1/domains' })).statusCode).toBe(403);
    for (const [hostname, error] of [
      ['https://qr.acme.example/x', /^hostname: give the hostname only/],
      ['10.0.0.1', /^hostname: must be a domain name, not an IP address/],
      ['localhost', /^hostname: must be a full domain name/],
      ['bad_label.example', /^hostname: "bad_label" is not a valid part/],
      ['qr.test', /^hostname: qr.test is this instance's own address/],
    ] as const) {
      const res = await owner.request({ method: 'POST', url: '/v1/domains', payload: { hostname } });
      expect(res.statusCode, hostname).toBe(400);
      expect(res.json().error).toMatch(error);
    }
    await owner.request({ method: 'POST', url: '/v1/domains', payload: { hostname: 'qr.acme.example' } });
    expect((await owner.request({ method: 'POST', url: '/v1/domains', payload: { hostname: 'qr.acme.example' } })).statusCode).toBe(409);
  });

  it('a code on a domain has its short link there and answers only on that host', async () => {
    const a = await app();
    const owner = await setupOwner(a);
    await activeDomain(owner, 'qr.acme.example');
    const onDomain = await createCode(owner, { domain: 'qr.acme.example' });
    expect(onDomain).toMatchObject({ domain: 'qr.acme.example', shortUrl: `http://qr.acme.example/r/${onDomain.code}` });
    const onInstance = await createCode(owner);
    expect(onInstance).toMatchObject({ domain: null, shortUrl: `http://qr.test/r/${onInstance.code}` });

    const there = await scan(a, onDomain.code, 'qr.acme.example');
    expect(there.statusCode).toBe(302);
    expect(there.headers.location).toBe('https://example.com/menu');
    expect((await scan(a, onDomain.code, 'QR.ACME.EXAMPLE:443')).statusCode).toBe(302);
    expect((await scan(a, onDomain.code, 'qr.test')).statusCode).toBe(404);
    expect((await scan(a, onInstance.code, 'qr.acme.example')).statusCode).toBe(404);
    expect((await scan(a, onInstance.code, 'qr.test')).statusCode).toBe(302);
    // Loopback names and IP literals are the instance's (a health check, a proxy without Host).
    expect((await scan(a, onInstance.code, '127.0.0.1:3000')).statusCode).toBe(302);
    expect((await scan(a, onInstance.code, 'unknown.example')).statusCode).toBe(404);

    // A pending domain serves nothing; a code cannot be put on it.
    await owner.request({ method: 'POST', url: '/v1/domains', payload: { hostname: 'pending.acme.example' } });
    const refused = await owner.request({
      method: 'POST',
      url: '/v1/qr',
      payload: { title: 'x', url: 'https://example.com', domain: 'pending.acme.example' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('domain: pending.acme.example is not a verified domain of this account (see GET /v1/domains)');

    // PATCH moves a code; null puts it back on the instance's address.
    const moved = await owner.request({ method: 'PATCH', url: `/v1/qr/${onInstance.id}`, payload: { domain: 'qr.acme.example' } });
    expect(moved.json().item.shortUrl).toBe(`http://qr.acme.example/r/${onInstance.code}`);
    expect((await scan(a, onInstance.code, 'qr.acme.example')).statusCode).toBe(302);
    expect((await scan(a, onInstance.code, 'qr.test')).statusCode).toBe(404);
    const back = await owner.request({ method: 'PATCH', url: `/v1/qr/${onInstance.id}`, payload: { domain: null } });
    expect(back.json().item.domain).toBeNull();
  });

  it('exports carry each code’s short link on its domain (read in the read workers on a SQLite file)', async () => {
    const a = await app();
    const owner = await setupOwner(a);
    await activeDomain(owner, 'qr.acme.example');
    const onDomain = await createCode(owner, { domain: 'qr.acme.example' });
    const key = await a.key('Acme');
    const res = await a.request({ method: 'GET', url: '/v1/qr/export?format=json', key });
    const items = (res.json() as { items: { code: string; shortUrl: string; domain: string | null }[] }).items;
    expect(items.find((i) => i.code === onDomain.code)).toMatchObject({ domain: 'qr.acme.example', shortUrl: onDomain.shortUrl });
  });

  it('keeps accounts apart: another account’s domain never opens a code, nor can it be named', async () => {
    const a = await app();
    const acme = await setupOwner(a);
    const beta = await signUp(a, 'Beta', 'b@example.com');
    await activeDomain(acme, 'qr.acme.example');
    await activeDomain(beta, 'go.beta.example');
    const acmeCode = await createCode(acme, { domain: 'qr.acme.example' });
    const betaCode = await createCode(beta, { domain: 'go.beta.example' });
    expect((await scan(a, acmeCode.code, 'go.beta.example')).statusCode).toBe(404);
    expect((await scan(a, betaCode.code, 'qr.acme.example')).statusCode).toBe(404);
    expect((await scan(a, betaCode.code, 'go.beta.example')).statusCode).toBe(302);
    const named = await beta.request({
      method: 'POST',
      url: '/v1/qr',
      payload: { title: 'x', url: 'https://example.com', domain: 'qr.acme.example' },
    });
    expect(named.statusCode).toBe(400);
    // The same hostname claimed by another account stays pending: only one account holds it.
    const claim = (await beta.request({ method: 'POST', url: '/v1/domains', payload: { hostname: 'qr.acme.example' } })).json()
      .domain as DomainAnswer;
    dns.txt.set(claim.verification.name, [claim.verification.value]);
    const verify = await beta.request({ method: 'POST', url: `/v1/domains/${claim.id}/verify` });
    expect(verify.json().domain).toMatchObject({
      status: 'failed',
      lastError: 'this hostname is verified by another account of this instance',
    });
    expect((await acme.request({ method: 'GET', url: `/v1/domains/${claim.id}` })).statusCode).toBe(404);
    expect((await scan(a, acmeCode.code, 'qr.acme.example')).statusCode).toBe(302);
  });

  it('the default domain takes new codes; fallback and root redirect answer on the domain', async () => {
    const a = await app();
    const owner = await setupOwner(a);
    const domain = await activeDomain(owner, 'qr.acme.example');
    const patched = await owner.request({
      method: 'PATCH',
      url: `/v1/domains/${domain.id}`,
      payload: { isDefault: true, fallbackUrl: 'https://acme.example/missing', rootRedirect: 'https://acme.example/' },
    });
    expect(patched.json().domain).toMatchObject({
      isDefault: true,
      fallbackUrl: 'https://acme.example/missing',
      rootRedirect: 'https://acme.example/',
    });
    const loop = await owner.request({
      method: 'PATCH',
      url: `/v1/domains/${domain.id}`,
      payload: { rootRedirect: 'https://qr.acme.example/x' },
    });
    expect(loop.json().error).toMatch(/^rootRedirect: must lead away from qr.acme.example/);

    const item = await createCode(owner);
    expect(item.domain).toBe('qr.acme.example');
    const batch = await owner.request({
      method: 'POST',
      url: '/v1/qr/batch',
      payload: {
        items: [
          { title: 'a', url: 'https://example.com' },
          { title: 'b', url: 'https://example.com', domain: null },
        ],
      },
    });
    expect(batch.statusCode, batch.body).toBe(201);
    expect(batch.json().items.map((i: { item: { domain: string | null } }) => i.item.domain)).toEqual(['qr.acme.example', null]);

    const unknown = await scan(a, 'AAAAAAA', 'qr.acme.example');
    expect(unknown.statusCode).toBe(302);
    expect(unknown.headers.location).toBe('https://acme.example/missing');
    await owner.request({ method: 'DELETE', url: `/v1/qr/${item.id}` });
    const deleted = await scan(a, item.code, 'qr.acme.example');
    expect(deleted.headers.location).toBe('https://acme.example/missing');
    expect((await scan(a, item.code, 'qr.test')).statusCode).toBe(404); // not the instance's code
    const root = await a.request({ method: 'GET', url: '/', headers: { host: 'qr.acme.example' } });
    expect(root.statusCode).toBe(302);
    expect(root.headers.location).toBe('https://acme.example/');
    expect((await a.request({ method: 'GET', url: '/', headers: { host: 'qr.test' } })).headers.location).toBe('/app/');
  });

  it('cannot be deleted while live codes use them; once deleted the host answers 404', async () => {
    const a = await app();
    const owner = await setupOwner(a);
    const domain = await activeDomain(owner, 'qr.acme.example');
    const item = await createCode(owner, { domain: 'qr.acme.example' });
    const refused = await owner.request({ method: 'DELETE', url: `/v1/domains/${domain.id}` });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatch(/^domain: 1 live code uses qr.acme.example/);
    await owner.request({ method: 'DELETE', url: `/v1/qr/${item.id}` });
    expect((await owner.request({ method: 'DELETE', url: `/v1/domains/${domain.id}` })).statusCode).toBe(200);
    expect((await scan(a, item.code, 'qr.acme.example')).statusCode).toBe(404);
    expect((await a.request({ method: 'GET', url: '/tls/ask?domain=qr.acme.example' })).statusCode).toBe(404);
  });

  it('GET /tls/ask says yes for the instance’s host and active domains only', async () => {
    const a = await app();
    const owner = await setupOwner(a);
    await activeDomain(owner, 'qr.acme.example');
    await owner.request({ method: 'POST', url: '/v1/domains', payload: { hostname: 'pending.acme.example' } });
    const ask = (domain: string) => a.request({ method: 'GET', url: `/tls/ask?domain=${encodeURIComponent(domain)}` });
    expect((await ask('qr.test')).statusCode).toBe(200);
    expect((await ask('qr.acme.example')).json()).toEqual({ ok: true });
    expect((await ask('pending.acme.example')).statusCode).toBe(404);
    expect((await ask('random.example')).statusCode).toBe(404);
    expect((await a.request({ method: 'GET', url: '/tls/ask' })).statusCode).toBe(400);
  });

  it('the listening server answers by Host on its fast path too', async () => {
    // The stub answers the server's lookups the same way; the server has a database of its own.
    const server = await startServer({ DATABASE_URL: 'sqlite::memory:', DNS_RESOLVERS: dns.address });
    try {
      const setup = /open (\S+) to create the owner/.exec(server.output())?.[1];
      expect(setup).toBeDefined();
      const token = setup?.split('/').pop();
      const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
        fetch(`${server.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(body),
        });
      const res = await post('/v1/setup', { token, accountName: 'Acme', email: 'o@example.com', password: PASSWORD });
      const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const csrf = ((await res.json()) as { csrfToken: string }).csrfToken;
      const as = { cookie, 'x-csrf-token': csrf };
      const domain = ((await (await post('/v1/domains', { hostname: 'qr.acme.example' }, as)).json()) as { domain: DomainAnswer }).domain;
      dns.txt.set(domain.verification.name, [domain.verification.value]);
      await post(`/v1/domains/${domain.id}/verify`, {}, as);
      await fetch(`${server.url}/v1/domains/${domain.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', ...as },
        body: JSON.stringify({ rootRedirect: 'https://acme.example/' }),
      });
      const item = (
        (await (await post('/v1/qr', { title: 'x', url: 'https://example.com/', domain: 'qr.acme.example' }, as)).json()) as {
          item: { code: string };
        }
      ).item;
      const port = Number(new URL(server.url).port);
      expect(await rawGet(port, `/r/${item.code}`, 'qr.acme.example')).toEqual({ status: 302, location: 'https://example.com/' });
      expect((await rawGet(port, `/r/${item.code}`, '127.0.0.1')).status).toBe(404);
      expect((await rawGet(port, `/r/${item.code}`, 'other.example')).status).toBe(404);
      expect(await rawGet(port, '/', 'qr.acme.example')).toEqual({ status: 302, location: 'https://acme.example/' });
    } finally {
      await server.stop();
    }
  });
});

function rawGet(port: number, path: string, host: string): Promise<{ status: number; location?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ...(res.headers.location ? { location: res.headers.location } : {}) }));
    });
    req.on('error', reject);
  });
}
