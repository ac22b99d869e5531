// Connections without credentials: a cap per peer address, headers and bodies that must arrive
// in time, and HSTS on an https instance. Real servers and real sockets (all of 127/8 reaches lo,
// so a client socket bound to 127.0.0.2 is another address to the server).
import net from 'node:net';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../support/processes.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

let t: TestApp | null = null;
let server: RunningServer | null = null;
const sockets: net.Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await t?.close();
  t = null;
  await server?.stop('SIGKILL');
  server = null;
});

async function listen(env: Record<string, string>): Promise<{ port: number; url: string }> {
  t = await makeTestApp(env);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as net.AddressInfo;
  return { port, url: `http://127.0.0.1:${port}` };
}

interface Held {
  socket: net.Socket;
  /** Whatever the server wrote before closing. */
  received(): string;
  closed(): boolean;
}

/** A connection from `localAddress` that sends `text` (maybe nothing, maybe half a request) and waits. */
function hold(port: number, localAddress: string, text = ''): Promise<Held> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress });
    sockets.push(socket);
    let got = '';
    let closed = false;
    socket.on('data', (d) => (got += d.toString()));
    socket.on('close', () => (closed = true));
    socket.on('error', () => {});
    socket.once('connect', () => {
      if (text !== '') socket.write(text);
      resolve({ socket, received: () => got, closed: () => closed });
    });
    socket.once('error', reject);
  });
}

async function visit(url: string, localAddress: string): Promise<number | string> {
  return new Promise((resolve) => {
    const u = new URL(url);
    const socket = net.connect({ port: Number(u.port), host: u.hostname, localAddress });
    let got = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve('timed out');
    }, 10_000);
    socket.on('connect', () => socket.write(`GET ${u.pathname} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
    socket.on('data', (d) => (got += d.toString()));
    socket.on('error', (err) => {
      clearTimeout(timer);
      resolve(err.message);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(got)?.[1] ?? 0) || `closed: ${got.slice(0, 40)}`);
    });
  });
}

describe('connections per address', () => {
  it('half-open connections from two addresses leave a third address served, even at the server’s file limit', async () => {
    // 300 files at most for the server, and 150 silent connections from each of two addresses:
    // without a per-address cap they would take every descriptor left.
    const cap = 50;
    server = await startServer(
      { DATABASE_URL: 'sqlite::memory:', MAX_CONNECTIONS_PER_ADDRESS: String(cap), HEADERS_TIMEOUT_MS: '60000', RENDER_WORKERS: '1' },
      { fdLimit: 300 },
    );
    const port = Number(new URL(server.url).port);
    const held: Held[] = [];
    for (const from of ['127.0.0.2', '127.0.0.3']) {
      for (let i = 0; i < cap + 100; i++) held.push(await hold(port, from, i % 2 === 0 ? '' : 'GET / HTTP/1.1\r\nHost: x\r\n'));
    }
    // The server keeps at most `cap` of each address's connections open; it closed the rest.
    await expect.poll(() => held.filter((h) => h.closed()).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(200);
    const statuses = [];
    for (let i = 0; i < 20; i++) statuses.push(await visit(`${server.url}/healthz`, '127.0.0.4'));
    expect(statuses).toEqual(Array(20).fill(200));
    // The newest connections of the flooding addresses are the ones still open.
    expect(held.slice(-cap).every((h) => !h.closed())).toBe(true);
  }, 120_000);

  it('answers 429 when every connection of the address has a request in flight', async () => {
    const { port, url } = await listen({ MAX_CONNECTIONS_PER_ADDRESS: '2', REQUEST_TIMEOUT_MS: '60000' });
    const key = await t!.key();
    // Two requests whose bodies are still coming: busy, so neither is closed to make room.
    const busy = `POST /v1/qr HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`;
    const a = await hold(port, '127.0.0.5', busy);
    const b = await hold(port, '127.0.0.5', busy);
    await new Promise((r) => setTimeout(r, 300));
    const third = await hold(port, '127.0.0.5');
    await expect.poll(() => third.closed(), { timeout: 10_000 }).toBe(true);
    expect(third.received()).toMatch(/^HTTP\/1\.1 429 /);
    expect(third.received()).toContain('too many open connections from this address');
    expect(a.closed() || b.closed()).toBe(false);
    expect(await visit(`${url}/healthz`, '127.0.0.6')).toBe(200);
  }, 60_000);
});

describe('timeouts', () => {
  it('closes a connection whose headers do not arrive within HEADERS_TIMEOUT_MS', async () => {
    const { port } = await listen({ HEADERS_TIMEOUT_MS: '1000' });
    const silent = await hold(port, '127.0.0.7');
    const half = await hold(port, '127.0.0.7', 'GET /healthz HTTP/1.1\r\nHost: x\r\n');
    const started = Date.now();
    await expect.poll(() => silent.closed() && half.closed(), { timeout: 15_000, interval: 100 }).toBe(true);
    // Node's default (60 s, checked every 30 s) kept such connections 80-125 s.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(half.received()).toMatch(/^HTTP\/1\.1 408 /);
  }, 60_000);

  it('closes a request whose body does not arrive within REQUEST_TIMEOUT_MS, except on imports and batches', async () => {
    const { port } = await listen({ REQUEST_TIMEOUT_MS: '1000' });
    const key = await t!.key();
    const slow = (path: string, type: string) =>
      `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: ${type}\r\nContent-Length: 100\r\n\r\n{`;
    const create = await hold(port, '127.0.0.8', slow('/v1/qr', 'application/json'));
    const importing = await hold(port, '127.0.0.8', slow('/v1/qr/import', 'text/csv'));
    const batch = await hold(port, '127.0.0.8', slow('/v1/qr/batch', 'application/json'));
    await expect.poll(() => create.closed(), { timeout: 15_000, interval: 100 }).toBe(true);
    expect(create.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(create.received()).toContain('the body did not arrive within 1 s');
    await new Promise((r) => setTimeout(r, 1500));
    expect(importing.closed()).toBe(false);
    expect(batch.closed()).toBe(false);
  }, 60_000);
});

describe('the body deadline under app.inject', () => {
  it('answers 408 to an injected request whose body is late, without a socket to drop (no unhandled error)', async () => {
    const app = await makeTestApp({ REQUEST_TIMEOUT_MS: '1000' });
    try {
      const key = await app.key();
      // Half a body, the rest after the deadline: the stand-in socket of inject has no destroy().
      const body = new PassThrough();
      body.write('{"title":');
      const late = setTimeout(() => body.end('"x","url":"https://example.com/"}'), 1800);
      const res = await app.request({
        method: 'POST',
        url: '/v1/qr',
        key,
        headers: { 'content-type': 'application/json', 'content-length': '44' },
        payload: body,
      });
      clearTimeout(late);
      expect(res.statusCode).toBe(408);
      expect(res.json().error).toContain('the body did not arrive within 1 s');
      // Vitest fails the run on an unhandled error; give a late one the time to surface.
      await new Promise((r) => setTimeout(r, 1000));
    } finally {
      await app.close();
    }
  }, 60_000);
});

describe('Strict-Transport-Security', () => {
  it('is sent on every answer when the public address is https, short links too', async () => {
    const { url } = await listen({ PUBLIC_BASE_URL: 'https://qr.test' });
    for (const path of ['/healthz', '/r/nope', '/v1/qr', '/app/']) {
      expect((await fetch(`${url}${path}`)).headers.get('strict-transport-security'), path).toBe('max-age=31536000');
    }
  });

  it('is not sent when the public address is http', async () => {
    const { url } = await listen({});
    expect((await fetch(`${url}/healthz`)).headers.get('strict-transport-security')).toBeNull();
  });
});
