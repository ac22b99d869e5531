// The generated TypeScript client (packages/client) against a listening server: the
// types are generated from the app's own document and must be committed up to date.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type QrItem, type QrtrackClient, createQrtrackClient } from '../../packages/client/src/index.ts';
import { CLIENT_TYPES_FILE, generateClientTypes } from '../../scripts/client-types.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
// The compiler runs beside the server this file starts in-process: a synchronous run would stop
// the server's event loop for seconds, and every timer (keep-alive, request timeouts) would then
// fire at once against the next request.
const run = promisify(execFile);

let t: TestApp;
let baseUrl: string;
let client: QrtrackClient;

beforeAll(async () => {
  t = await makeTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  client = createQrtrackClient({ baseUrl, apiKey: await t.key() });
});
afterAll(() => t.close());

async function createItem(title: string): Promise<QrItem> {
  const { data, error, response } = await client.POST('/v1/qr', { body: { title, url: 'https://example.com/menu', dotsStyle: 'rounded' } });
  expect(error).toBeUndefined();
  expect(response.status).toBe(201);
  return data!.item;
}

describe('the generated client', () => {
  it('is generated from the current OpenAPI document (run `npm run client:generate` after changing a schema)', async () => {
    expect(fs.readFileSync(CLIENT_TYPES_FILE, 'utf8')).toBe(await generateClientTypes());
  });

  it('creates, lists, reads and pauses an item with typed bodies and answers', async () => {
    const item = await createItem('Spring menu');
    expect(item.shortUrl).toBe(`${t.config.publicBaseUrl}/r/${item.code}`);
    expect(item.design.dotsStyle).toBe('rounded');

    const list = await client.GET('/v1/qr', { params: { query: { limit: 10, q: 'spring' } } });
    expect(list.data?.items.map((i) => i.id)).toEqual([item.id]);
    expect(list.data?.nextCursor).toBeNull();

    const one = await client.GET('/v1/qr/{id}', { params: { path: { id: item.id } } });
    expect(one.data?.item).toEqual(item);

    const paused = await client.PATCH('/v1/qr/{id}', { params: { path: { id: item.id } }, body: { active: false } });
    expect(paused.data?.item.active).toBe(false);
    expect(paused.data?.warnings).toEqual([]);
    expect((await fetch(`${baseUrl}/r/${item.code}`, { redirect: 'manual' })).status).toBe(404);
  });

  it('reads stats after a scan', async () => {
    const item = await createItem('Scanned');
    const iphone = { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Mobile/15E148 Safari/604.1' };
    expect((await fetch(`${baseUrl}/r/${item.code}`, { redirect: 'manual', headers: iphone })).status).toBe(302);
    const stats = await client.GET('/v1/qr/{id}/stats', { params: { path: { id: item.id }, query: { days: 7, tz: 'Europe/Berlin' } } });
    expect(stats.data?.totals.scans).toBe(1);
    expect(stats.data?.breakdown.os).toEqual([{ value: 'iOS', scans: 1 }]);
    expect(stats.data?.daily).toHaveLength(7);
    expect(stats.data?.tz).toBe('Europe/Berlin');
  });

  it('downloads the SVG and PNG images', async () => {
    const item = await createItem('Pictured');
    const svg = await client.GET('/v1/qr/{id}/image.svg', { params: { path: { id: item.id } }, parseAs: 'text' });
    expect(svg.response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(svg.data).toMatch(/^<svg/);
    const png = await client.GET('/v1/qr/{id}/image.png', {
      params: { path: { id: item.id }, query: { size: 500 } },
      parseAs: 'arrayBuffer',
    });
    const bytes = Buffer.from(png.data as unknown as ArrayBuffer);
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(bytes.readUInt32BE(16)).toBe(500);
  });

  it('answers errors as typed {error} bodies', async () => {
    const missing = await client.GET('/v1/qr/{id}', { params: { path: { id: '00000000-0000-4000-8000-000000000000' } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toEqual({ error: 'QR item not found' });
    // The compiler stops a wrong enum value; the server still refuses it at run time.
    const bad = await client.POST('/v1/qr', { body: { title: 'x', url: 'example.com', dotsStyle: 'hexagons' as 'square' } });
    expect(bad.response.status).toBe(400);
    expect(bad.error?.error).toBe('dotsStyle: must be one of square, dots, rounded, extra-rounded, classy, classy-rounded');
    const anonymous = createQrtrackClient({ baseUrl, apiKey: 'qrt_wrong' });
    expect((await anonymous.GET('/v1/qr')).response.status).toBe(401);
  });

  it("type-checks its README's example against the generated types", async () => {
    const readme = fs.readFileSync(path.join(ROOT, 'packages/client/README.md'), 'utf8');
    const example = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toContain("from '@qrtrack/client'");
    fs.mkdirSync(path.join(ROOT, '.scratch'), { recursive: true });
    const dir = fs.mkdtempSync(path.join(ROOT, '.scratch', 'client-readme-'));
    try {
      const file = path.join(dir, 'example.ts');
      // The example as a user writes it, with the package name pointing at the source here.
      fs.writeFileSync(
        file,
        `export {};\n${example!.replace("'@qrtrack/client'", `'${path.join(ROOT, 'packages/client/src/index.ts')}'`)}`,
      );
      const tsc = [
        path.join(ROOT, 'node_modules/typescript/bin/tsc'),
        '--noEmit',
        '--strict',
        '--target',
        'ES2022',
        '--module',
        'NodeNext',
        '--moduleResolution',
        'NodeNext',
      ];
      const flags = ['--allowImportingTsExtensions', '--skipLibCheck', '--types', 'node', file];
      await run(process.execPath, [...tsc, ...flags], { cwd: ROOT, encoding: 'utf8' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('builds into the published layout, and the built package works', async () => {
    // Inside the repository, so the built code resolves openapi-fetch as an installed package would.
    fs.mkdirSync(path.join(ROOT, '.scratch'), { recursive: true });
    const out = fs.mkdtempSync(path.join(ROOT, '.scratch', 'client-build-'));
    try {
      const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
      await run(process.execPath, [tsc, '-p', 'packages/client/tsconfig.json', '--outDir', out], {
        cwd: ROOT,
      });
      const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'packages/client/package.json'), 'utf8')) as {
        exports: { '.': { types: string; import: string } };
      };
      for (const file of Object.values(pkg.exports['.'])) expect(fs.existsSync(path.join(out, path.relative('./dist', file)))).toBe(true);
      const built = (await import(pathToFileURL(path.join(out, 'index.js')).href)) as typeof import('../../packages/client/src/index.ts');
      const item = await createItem('Built');
      const res = await built
        .createQrtrackClient({ baseUrl: `${baseUrl}/`, apiKey: await t.key() })
        .GET('/v1/qr/{id}', { params: { path: { id: item.id } } });
      expect(res.data?.item.title).toBe('Built');
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});
