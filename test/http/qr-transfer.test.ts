import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTurns } from '../support/event-loop.ts';
import { type TestApp, PUBLIC_BASE_URL, makeTestApp } from '../support/test-app.ts';

let t: TestApp;

beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(() => t.close());

const importCsv = (key: string, csv: string) =>
  t.request({ method: 'POST', url: '/v1/qr/import', key, payload: csv, headers: { 'content-type': 'text/csv' } });
const list = async (key: string) =>
  (await t.request({ method: 'GET', url: '/v1/qr?limit=200', key })).json().items as {
    title: string;
    payload: string;
    tags: string[];
    design: Record<string, unknown>;
    contentType: string;
  }[];

describe('CSV import', () => {
  it('creates one code per row, with kinds, flat and JSON design, and tags', async () => {
    const key = await t.key('importer');
    const csv = [
      'title,contentType,url,wifiSsid,wifiPass,dotsStyle,logoSize,hideDotsBehindLogo,design,tags',
      'Menu,url,https://example.com/menu,,,rounded,0.2,false,,food|print',
      'Guest Wi-Fi,wifi,,Cafe,secret,,,,"{""color1"":""#1a73e8""}",',
    ].join('\n');
    const res = await importCsv(key, csv);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ created: 2 });
    const [wifi, menu] = await list(key);
    expect(menu).toMatchObject({ title: 'Menu', payload: 'https://example.com/menu', tags: ['food', 'print'] });
    expect(menu?.design).toMatchObject({ dotsStyle: 'rounded', logoSize: 0.2, hideDotsBehindLogo: false });
    expect(wifi).toMatchObject({ title: 'Guest Wi-Fi', contentType: 'wifi', payload: 'WIFI:T:WPA;S:Cafe;P:secret;;' });
    expect(wifi?.design.color1).toBe('#1a73e8');
  });

  it('parses custom logos in the render pool, not on the thread that answers the short links', async () => {
    // Six different SVG logos of some 300 KiB (4,000 shapes each): sanitizing one takes a tenth
    // of a second or more. Parsed in place, 22 such logos held the short links 10.7 s.
    const key = await t.key('logo-importer');
    const logo = (i: number) => {
      const shapes = Array.from(
        { length: 4000 },
        (_, k) =>
          `<rect x="${k % 64}" y="${(k >> 6) % 64}" width="1" height="1" fill="#${((k * 7919 + i) % 0xffffff).toString(16).padStart(6, '0')}"/>`,
      ).join('');
      return `data:image/svg+xml;base64,${Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">${shapes}</svg>`).toString('base64')}`;
    };
    const rows = Array.from({ length: 6 }, (_, i) => `Logo ${i},https://example.com/l/${i},"${logo(i)}"`);
    const counter = countTurns();
    const res = await importCsv(key, ['title,url,customLogoUrl', ...rows].join('\n'));
    const turns = counter.stop();
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ created: 6 });
    // Waiting for the workers, the loop turns freely (thousands of times); parsed in place it
    // turned a handful of times in all.
    expect(turns).toBeGreaterThan(200);
    expect((await list(key)).map((i) => (i.design.customLogoUrl as string).slice(0, 26))).toEqual(
      Array(6).fill('data:image/svg+xml;base64,'),
    );
    // Twelve parses at low priority (nice 10): tens of seconds on a loaded machine; the bound is
    // a hang guard, the assertion is the turns.
  }, 180_000);

  it('refuses a logo too costly to draw, as POST /v1/qr does, naming its line; nothing is stored', async () => {
    const key = await t.key('costly-importer');
    // Sixteen blurs (the most a filter may hold) over two shapes (32, the most a logo may hold): about twice the trial's
    // CPU budget, so a quick moment of the machine cannot let it through.
    const blurs = '<feGaussianBlur stdDeviation="1"/>'.repeat(16);
    const rects = '<rect width="10" height="10" fill="#e91e63" filter="url(#f)"/>'.repeat(2);
    const costly = `data:image/svg+xml;base64,${Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><filter id="f">${blurs}</filter>${rects}</svg>`).toString('base64')}`;
    const res = await importCsv(
      key,
      [
        'title,url,logoSize,errorCorrectionLevel,customLogoUrl',
        'Fine,https://example.com/a,,,',
        `Costly,https://example.com/b,0.5,H,"${costly}"`,
      ].join('\n'),
    );
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ error: 'line 3: customLogoUrl: the logo is too expensive to draw' });
    expect(await list(key)).toEqual([]);
  });

  it('works through a large file in slices, letting the event loop turn between them', async () => {
    // The parser used to get the whole body as one piece and the rows came as microtasks:
    // 20,000 rows held the thread that answers the short links for 0.9 s. Counted in turns.
    const key = await t.key('big-importer');
    const rows = Array.from({ length: 4000 }, (_, i) => `Guest ${i},https://example.com/g/${i},"a, quoted ""cell"" ${i}"`);
    const counter = countTurns();
    const res = await importCsv(key, ['title,url,frameText', ...rows].join('\n'));
    const turns = counter.stop();
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ created: 4000 });
    // Both passes turn at least every 200 rows.
    expect(turns).toBeGreaterThanOrEqual(40);
    const newest = (await list(key))[0];
    expect(newest).toMatchObject({ title: 'Guest 3999', payload: 'https://example.com/g/3999' });
    expect(newest?.design.frameText).toBe('a, quoted "cell" 3999');
  });

  it('parses one row of millions of cells in pieces, letting the event loop turn between them', async () => {
    // The parser works through each piece of the body in one go and hands a row over only at
    // its end: given the body in pieces without turns, one 16 MiB row held the thread 1.5 s.
    const key = await t.key('wide-row');
    const counter = countTurns();
    const res = await importCsv(key, `title,url\n${','.repeat(2_000_000)}\n`);
    const turns = counter.stop();
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^line 2: /);
    // 2 MB in pieces of 64 KiB.
    expect(turns).toBeGreaterThanOrEqual(30);
  });

  it('reads quotes, a BOM, CRLF line ends, empty lines and quoted line breaks', async () => {
    const key = await t.key('edges');
    const csv = '\uFEFFtitle,contentType,text\r\n"Say ""hi"", please",text,"two\r\nlines"\r\n\r\nplain,text,x\r\n';
    const res = await importCsv(key, csv);
    expect(res.json()).toEqual({ created: 2 });
    const items = await list(key);
    expect(items.map((i) => i.title)).toEqual(['plain', 'Say "hi", please']);
    expect(items[1]?.payload).toBe('two\r\nlines');
  });

  it('stores nothing when a row is bad, and names its line and field', async () => {
    const key = await t.key('bad-row');
    const rows = ['title,url', ...Array.from({ length: 1500 }, (_, i) => `ok ${i},https://example.com/${i}`)];
    rows[1201] = 'broken,javascript:alert(1)';
    const res = await importCsv(key, rows.join('\n'));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^line 1202: url: /);
    expect(await list(key)).toEqual([]);
    const badType = await importCsv(key, 'title,logoSize\nx,big\n');
    expect(badType.json()).toEqual({ error: 'line 2: logoSize: must be a number between 0.1 and 0.5' });
    const nul = await importCsv(key, 'title,url\nok,https://example.com/a\nx,https://example.com/\u0000b\n');
    expect(nul.json()).toEqual({ error: 'line 3: url: must be valid Unicode text without NUL characters' });
    expect(await list(key)).toEqual([]);
  });

  it('answers 400 for an unknown or repeated column, a missing title column, and a ragged row', async () => {
    const key = await t.key('bad-csv');
    expect((await importCsv(key, 'title,colour\nx,red\n')).json().error).toMatch(
      /^line 1: unknown column "colour"; known columns: title, /,
    );
    expect((await importCsv(key, 'title,title\nx,y\n')).json()).toEqual({ error: 'line 1: column "title" appears twice' });
    expect((await importCsv(key, 'url\nhttps://x.example\n')).json()).toEqual({ error: 'line 1: a "title" column is required' });
    const ragged = await importCsv(key, 'title,url\nx,https://x.example,extra\n');
    expect(ragged.statusCode).toBe(400);
    expect(ragged.json().error).toMatch(/^line 2: /);
    const unclosed = await importCsv(key, 'title\n"never closed\n');
    expect(unclosed.statusCode).toBe(400);
    // An empty file is a mistake, not an import of nothing; a header alone imports nothing.
    for (const empty of ['', '\n\n', '\ufeff']) {
      const res = await importCsv(key, empty);
      expect(res.statusCode, JSON.stringify(empty)).toBe(400);
      expect(res.json()).toEqual({ error: 'line 1: the file is empty; a header row with a "title" column is required' });
    }
    expect((await importCsv(key, 'title,url\n')).json()).toEqual({ created: 0 });
    expect(await list(key)).toEqual([]);
  });

  it('needs qr:write and a CSV body', async () => {
    const reader = await t.key('importer', 'qr:read');
    expect((await importCsv(reader, 'title\nx\n')).statusCode).toBe(403);
    const writer = await t.key('importer');
    const json = await t.request({ method: 'POST', url: '/v1/qr/import', key: writer, payload: { title: 'x' } });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toEqual({ error: 'Content-Type: must be text/csv' });
    for (const headers of [{}, { 'content-type': 'text/plain' }]) {
      const other = await t.request({ method: 'POST', url: '/v1/qr/import', key: writer, payload: 'title\nx\n', headers });
      expect(other.statusCode, JSON.stringify(headers)).toBe(415);
      expect(other.json()).toEqual({ error: 'Content-Type: must be text/csv' });
    }
  });
});

describe('export', () => {
  it('exports every code as CSV with short links and scan totals, and the file imports again', async () => {
    const key = await t.key('exporter');
    const items = Array.from({ length: 2100 }, (_, i) => ({
      title: `Code ${i}`,
      url: `https://example.com/${i}`,
      tags: i % 2 ? ['odd'] : [],
    }));
    for (let i = 0; i < items.length; i += 1000) {
      let made = await t.request({ method: 'POST', url: '/v1/qr/batch', key, payload: { items: items.slice(i, i + 1000) } });
      // A 503 asks the client to come back (its body reads the batch in a render worker, which a
      // machine running the whole suite has starved for 10 s in CI, twice in a row in one run): as
      // a client would, up to four times.
      for (let retry = 0; retry < 4 && made.statusCode === 503; retry++) {
        console.log(`batch answered 503 (${made.body}); retried after Retry-After ${made.headers['retry-after']} s`);
        await new Promise((r) => setTimeout(r, Number(made.headers['retry-after'] ?? 1) * 1000));
        made = await t.request({ method: 'POST', url: '/v1/qr/batch', key, payload: { items: items.slice(i, i + 1000) } });
      }
      expect(made.statusCode, made.body).toBe(201);
    }
    const res = await t.request({ method: 'GET', url: '/v1/qr/export?format=csv', key });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows = parse(res.body, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(2100);
    expect(rows[0]).toMatchObject({ title: 'Code 2099', tags: 'odd', scanCount: '0', active: 'true' });
    expect(rows[0]?.shortUrl).toBe(`${PUBLIC_BASE_URL}/r/${rows[0]?.code}`);
    expect(new Set(rows.map((r) => r.code)).size).toBe(2100);

    const odd = await t.request({ method: 'GET', url: '/v1/qr/export?format=json&tag=odd', key });
    const body = odd.json();
    expect(body.items).toHaveLength(1050);
    expect(body.items[0]).toMatchObject({ title: 'Code 2099', tags: ['odd'] });

    const copy = await t.key('copy');
    const again = await importCsv(copy, res.body);
    expect(again.json()).toEqual({ created: 2100 });
    // The file lists the newest first, so its first row becomes the oldest copy.
    const copied = (await t.request({ method: 'GET', url: '/v1/qr/export?format=json', key: copy })).json().items;
    const original = (await t.request({ method: 'GET', url: '/v1/qr/export?format=json', key })).json().items;
    const shape = (i: { title: string; payload: string; tags: string[]; design: unknown }) => [i.title, i.payload, i.tags, i.design];
    expect(copied.map(shape).reverse()).toEqual(original.map(shape));
  });

  it('exports a code’s public heading and imports it again', async () => {
    const key = await t.key('headings');
    const made = await t.request({
      method: 'POST',
      url: '/v1/qr',
      key,
      payload: { title: 'Lobby sign (internal)', heading: 'Welcome to the lobby', contentType: 'text', text: 'Wi-Fi on floor 2' },
    });
    expect(made.statusCode, made.body).toBe(201);
    await t.request({ method: 'POST', url: '/v1/qr', key, payload: { title: 'No heading', contentType: 'text', text: 'x' } });
    const res = await t.request({ method: 'GET', url: '/v1/qr/export?format=csv', key });
    const rows = parse(res.body, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [r.title, r.heading])).toEqual([
      ['No heading', ''],
      ['Lobby sign (internal)', 'Welcome to the lobby'],
    ]);
    const copy = await t.key('headings-copy');
    expect((await importCsv(copy, res.body)).json()).toEqual({ created: 2 });
    const copied = (await t.request({ method: 'GET', url: '/v1/qr/export?format=json', key: copy })).json().items as {
      title: string;
      heading: string | null;
    }[];
    expect(copied.map((i) => [i.title, i.heading]).sort()).toEqual([
      ['Lobby sign (internal)', 'Welcome to the lobby'],
      ['No heading', null],
    ]);
  });

  it('guards cells a spreadsheet would run as formulas, and the guarded file imports back to the same text', async () => {
    const key = await t.key('formulas');
    const made = [
      { title: '=HYPERLINK("http://evil.example","x")', contentType: 'text', text: "-2+3+cmd|' /C calc'!A0", tags: ['@sum(1)'] },
      { title: "'=already quoted", contentType: 'text', text: '+1', tags: [] },
      { title: "'plain apostrophe", contentType: 'text', text: 'safe', tags: [] },
      { title: '＝HYPERLINK("http://evil.example")', contentType: 'text', text: '＋1', tags: ['＠x', '－y'] },
    ];
    for (const body of made) expect((await t.request({ method: 'POST', url: '/v1/qr', key, payload: body })).statusCode).toBe(201);
    const res = await t.request({ method: 'GET', url: '/v1/qr/export?format=csv', key });
    const rows = parse(res.body, { columns: true }) as Record<string, string>[];
    const byTitle = new Map(rows.map((r) => [r.title, r]));
    expect(byTitle.get('\'=HYPERLINK("http://evil.example","x")')?.payload).toBe("'-2+3+cmd|' /C calc'!A0");
    expect(byTitle.get('\'=HYPERLINK("http://evil.example","x")')?.tags).toBe("'@sum(1)");
    expect(byTitle.get("''=already quoted")?.payload).toBe("'+1");
    expect(byTitle.get("'plain apostrophe")?.payload).toBe('safe');
    // Full-width forms, which some spreadsheets read as = + - @, too.
    expect(byTitle.get('\'＝HYPERLINK("http://evil.example")')?.payload).toBe("'＋1");
    // No cell of the file starts as a formula.
    for (const r of rows) for (const cell of Object.values(r)) expect(cell, cell).not.toMatch(/^[=+\-@\t\r＝＋－＠]/);
    const copy = await t.key('formulas-copy');
    expect((await importCsv(copy, res.body)).json()).toEqual({ created: 4 });
    const shape = (i: { title: string; payload: string; tags: string[] }) => `${i.title} | ${i.payload} | ${i.tags.join(',')}`;
    expect((await list(copy)).map(shape).sort()).toEqual((await list(key)).map(shape).sort());
  });

  it('exports an empty account as a header or an empty list, and refuses a bad format', async () => {
    const key = await t.key('empty-export');
    expect((await t.request({ method: 'GET', url: '/v1/qr/export', key })).body).toBe(
      'id,code,shortUrl,title,contentType,payload,active,tags,scanCount,createdAt,updatedAt,design,status,activatesAt,expiresAt,maxScans,scanCapBasis,fallbackUrls,rules,forwardQuery,utm,hasPassword,heading\n',
    );
    expect((await t.request({ method: 'GET', url: '/v1/qr/export?format=json', key })).json()).toEqual({ items: [] });
    const bad = await t.request({ method: 'GET', url: '/v1/qr/export?format=xml', key });
    expect(bad.json()).toEqual({ error: 'format: must be csv or json' });
  });
});
