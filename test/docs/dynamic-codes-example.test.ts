// The rules example in docs/dynamic-codes.md, taken from the page as written: the API accepts it
// and the short link routes as the page says.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

const DOC = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/dynamic-codes.md'), 'utf8');

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';
const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

/** The `"rules": [...]` block under "### Example", as an object. */
function exampleRules(): unknown {
  const from = DOC.indexOf('### Example');
  expect(from).toBeGreaterThanOrEqual(0);
  const block = /```json\n([\s\S]*?)```/.exec(DOC.slice(from));
  if (block === null) throw new Error('no json block under ### Example');
  return (JSON.parse(`{${block[1]}}`) as { rules: unknown }).rules;
}

describe('the rules example of docs/dynamic-codes.md', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(() => t.close());

  it('is accepted as written and routes iPhones, Android phones and the rest as the page says', async () => {
    const key = await t.key();
    const res = await t.request({
      method: 'POST',
      url: '/v1/qr',
      key,
      payload: { title: 'App', url: 'https://example.com/', rules: exampleRules() },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { code } = res.json().item as { code: string };
    const go = async (ua: string, ip: string, language = 'en-US') => {
      const r = await t.request({
        method: 'GET',
        url: `/r/${code}`,
        headers: { 'user-agent': ua, 'accept-language': language },
        remoteAddress: ip,
      });
      expect(r.statusCode).toBe(302);
      return r.headers.location;
    };
    expect(await go(IPHONE, '198.51.100.1')).toBe('https://apps.apple.com/app/id123');
    expect(await go(ANDROID, '198.51.100.2')).toBe('https://play.google.com/store/apps/details?id=com.example');
    // Not German: the A/B split, each visitor to one of its two halves, both halves taken.
    const halves = new Set<string | undefined>();
    for (let i = 0; i < 40; i++) halves.add(await go(DESKTOP, `203.0.113.${i + 1}`));
    expect([...halves].sort()).toEqual(['https://example.com/a', 'https://example.com/b']);
  });
});
