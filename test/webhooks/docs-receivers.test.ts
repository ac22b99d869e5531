// The two receivers docs/webhooks.md gives integrators, run as written: the one on the
// specification's library as a process of its own against deliveries of a real server, and the
// few lines of Node against signed and forged requests.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signatureHeader } from '../../src/domain/webhooks/signature.ts';
import { freePort } from '../support/processes.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DOC = fs.readFileSync(path.join(ROOT, 'docs/webhooks.md'), 'utf8');
// Under node_modules, so that the receiver's `import … from 'standardwebhooks'` resolves as in a project of its own.
const DIR = fs.mkdtempSync(path.join(ROOT, 'node_modules', '.qrtrack-docs-receivers-'));
afterAll(() => fs.rmSync(DIR, { recursive: true, force: true }));

/** The first ```js block after `heading` in docs/webhooks.md. */
function codeAfter(heading: string): string {
  const from = DOC.indexOf(heading);
  expect(from, heading).toBeGreaterThanOrEqual(0);
  const block = /```js\n([\s\S]*?)```/.exec(DOC.slice(from));
  if (block === null) throw new Error(`no js block after ${heading}`);
  return block[1] as string;
}

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

describe('the receiver on the specification’s library (docs/webhooks.md)', () => {
  let t: TestApp;
  let child: ChildProcess | null = null;
  beforeEach(async () => {
    t = await makeTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  });
  afterEach(async () => {
    child?.kill();
    await t.close();
  });

  it('verifies real deliveries, logs each scan’s first visit once, and refuses a forged request', async () => {
    const key = await t.key('acme', 'qr:read,qr:write,webhooks:read,webhooks:write');
    const port = await freePort();
    const hook = await t.request({
      method: 'POST',
      url: '/v1/webhooks',
      key,
      payload: { url: `http://127.0.0.1:${port}/`, events: ['scan.created'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const file = path.join(DIR, 'receiver.mjs');
    fs.writeFileSync(file, codeAfter('## A receiver that verifies signatures'));
    let out = '';
    child = spawn(process.execPath, [file], {
      env: { ...process.env, WEBHOOK_SECRET: hook.json().secret as string, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr?.on('data', (c: Buffer) => {
      out += c.toString();
    });
    // Listening: a request without a signature is refused.
    const forged = async () => {
      for (let i = 0; ; i++) {
        try {
          return await fetch(`http://127.0.0.1:${port}/`, {
            method: 'POST',
            headers: {
              'webhook-id': 'msg_forged',
              'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
              'webhook-signature': 'v1,AAAA',
            },
            body: JSON.stringify({ type: 'scan.created', timestamp: new Date().toISOString(), data: { scans: [] } }),
          });
        } catch (err) {
          if (i > 100) throw err;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    };
    expect((await forged()).status).toBe(400);

    const item = (
      await t.request({ method: 'POST', url: '/v1/qr', key, payload: { title: 'Menu', url: 'https://example.com/menu' } })
    ).json().item as { code: string };
    const scan = (ip: string) => t.request({ method: 'GET', url: `/r/${item.code}`, headers: { 'user-agent': IPHONE }, remoteAddress: ip });
    // Two visitors, one of them twice: two first visits.
    for (const ip of ['198.51.100.23', '198.51.100.23', '203.0.113.9']) expect((await scan(ip)).statusCode).toBe(302);
    await t.services.rollups.catchUp();
    await t.services.webhooks.feed();
    const deadline = Date.now() + 15_000;
    while (out.split('\n').filter((l) => l.startsWith('new visitor on')).length < 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(out.trim().split('\n')).toEqual([`new visitor on ${item.code}`, `new visitor on ${item.code}`]);
  }, 30_000);
});

describe('the few lines of Node that check a signature (docs/webhooks.md)', () => {
  it('accepts what the server signs, with either secret during a rotation, and nothing else', async () => {
    const file = path.join(DIR, 'verify.mjs');
    fs.writeFileSync(file, `${codeAfter('Without a library, the check is a few lines of Node')}\nexport { verify };\n`);
    const { verify } = (await import(file)) as { verify: (secret: string, headers: Record<string, string>, body: string) => boolean };
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const other = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    const body = JSON.stringify({ type: 'webhook.test', timestamp: new Date().toISOString(), data: {} });
    const now = Math.floor(Date.now() / 1000);
    const headers = (signature: string, ts = now) => ({
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(ts),
      'webhook-signature': signature,
    });
    const signed = signatureHeader([secret], 'msg_1', now, body);
    expect(verify(secret, headers(signed), body)).toBe(true);
    expect(verify(other, headers(signed), body)).toBe(false);
    expect(verify(secret, headers(signed), `${body} `)).toBe(false);
    expect(verify(secret, headers(signatureHeader([secret], 'msg_1', now - 600, body), now - 600), body)).toBe(false);
    const both = signatureHeader([other, secret], 'msg_1', now, body);
    expect(verify(secret, headers(both), body)).toBe(true);
    expect(verify(other, headers(both), body)).toBe(true);
  });
});
