// A code's public heading apart from its title (issue #32): the landing page of a Wi-Fi,
// contact or text code shows the heading when set, a neutral one by kind otherwise, and never
// the title, which is the account's own name for the code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await makeTestApp();
  key = await t.key('heading');
});
afterAll(() => t.close());

async function create(body: object) {
  const res = await t.request({ method: 'POST', url: '/v1/qr', key, payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().item as { id: string; code: string; heading: string | null };
}

const page = async (code: string) => (await t.app.inject({ method: 'GET', url: `/r/${code}` })).body;
const h1 = (html: string) => /<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1];

describe('the public heading', () => {
  it('is shown on the landing page instead of the title, which visitors never see', async () => {
    const it = await create({
      title: 'Internal: lobby router, floor 2',
      heading: 'Guest Wi-Fi',
      contentType: 'wifi',
      wifiSsid: 'Lobby',
      wifiPass: 'secret-pass',
    });
    expect(it.heading).toBe('Guest Wi-Fi');
    const html = await page(it.code);
    expect(h1(html)).toBe('Guest Wi-Fi');
    expect(html).toContain('<title>Guest Wi-Fi');
    expect(html).not.toContain('Internal');
  });

  it('falls back to a neutral heading by kind, never the title', async () => {
    for (const [body, neutral] of [
      [{ contentType: 'wifi', wifiSsid: 'Cafe' }, 'Wi-Fi network'],
      [{ contentType: 'text', text: 'Hello' }, 'A message for you'],
    ] as const) {
      const it = await create({ title: 'Private name 42', ...body });
      expect(it.heading).toBeNull();
      const html = await page(it.code);
      expect(h1(html)).toBe(neutral);
      expect(html).not.toContain('Private name 42');
    }
    // A contact card's heading is the person's name, as before; the title stays out.
    const card = await create({ title: 'Private card', contentType: 'vcard', vcardFirstName: 'Ada', vcardLastName: 'Lovelace' });
    const html = await page(card.code);
    expect(h1(html)).toBe('Ada Lovelace');
    expect(html).not.toContain('Private card');
  });

  it('is changed and cleared by PATCH (an empty string clears it too), and is checked', async () => {
    const it = await create({ title: 'Notes', contentType: 'text', text: 'Read me', heading: '  Welcome  ' });
    expect(it.heading).toBe('Welcome');
    const patch = (payload: object) => t.request({ method: 'PATCH', url: `/v1/qr/${it.id}`, key, payload });
    expect((await patch({ heading: 'Hello there' })).json().item.heading).toBe('Hello there');
    expect(h1(await page(it.code))).toBe('Hello there');
    expect((await patch({ title: 'Renamed' })).json().item.heading).toBe('Hello there');
    expect((await patch({ heading: null })).json().item.heading).toBeNull();
    expect(h1(await page(it.code))).toBe('A message for you');
    expect((await patch({ heading: 'Back' })).json().item.heading).toBe('Back');
    expect((await patch({ heading: '' })).json().item.heading).toBeNull();
    const long = await patch({ heading: 'x'.repeat(121) });
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toBe('heading: must be a string of at most 120 characters or null');
    const read = await t.request({ method: 'GET', url: `/v1/qr/${it.id}`, key });
    expect(read.json().item.heading).toBeNull();
  });

  it('is taken by the batch route', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/qr/batch',
      key,
      payload: {
        items: [
          { title: 'B1', contentType: 'text', text: 'one', heading: 'First' },
          { title: 'B2', contentType: 'text', text: 'two' },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const [a, b] = res.json().items.map((i: { item: { code: string; heading: string | null } }) => i.item);
    expect([a.heading, b.heading]).toEqual(['First', null]);
    expect(h1(await page(a.code))).toBe('First');
  });
});
