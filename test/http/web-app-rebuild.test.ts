// dist/web rebuilt under a running server (a deploy into the same folder): the page served
// names the new scripts, which load; a server started before the first build serves it once built.
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { webAppRoutes } from '../../src/http/plugins/web-app.ts';
import { tempDir } from '../support/test-app.ts';

let app: FastifyInstance | undefined;
afterEach(() => app?.close());

/** Writes a build as Vite does: the folder emptied, hashed assets, then index.html naming them. */
function build(dir: string, hash: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'assets', `index-${hash}.js`), `console.log('${hash}');\n`);
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html><div id="app"></div><script type="module" src="/app/assets/index-${hash}.js"></script>\n`,
  );
}

async function serve(dir: string): Promise<FastifyInstance> {
  const server = Fastify({ logger: false });
  await server.register((a) => webAppRoutes(a, { dir }));
  await server.ready();
  return server;
}

/** The script the page names, and whether it loads. */
async function pageScript(server: FastifyInstance): Promise<{ src: string | undefined; loads: boolean }> {
  const html = await server.inject({ method: 'GET', url: '/app/codes' });
  const src = /src="(\/app\/assets\/[^"]+)"/.exec(html.body)?.[1];
  return { src, loads: src !== undefined && (await server.inject({ method: 'GET', url: src })).statusCode === 200 };
}

describe('the web app rebuilt under a running server', () => {
  it('serves the new index.html, whose scripts load, within a couple of seconds of the rebuild', async () => {
    const dir = path.join(tempDir(), 'web');
    build(dir, 'aaaa1111');
    app = await serve(dir);
    expect(await pageScript(app)).toEqual({ src: '/app/assets/index-aaaa1111.js', loads: true });

    build(dir, 'bbbb2222');
    await expect
      .poll(() => pageScript(app!), { timeout: 3_000, interval: 100 })
      .toEqual({ src: '/app/assets/index-bbbb2222.js', loads: true });
  });

  it('a server started before the first build serves the app once it is built', async () => {
    const dir = path.join(tempDir(), 'web');
    app = await serve(dir);
    expect((await app.inject({ method: 'GET', url: '/app/' })).statusCode).toBe(503);
    build(dir, 'cccc3333');
    await expect
      .poll(() => pageScript(app!), { timeout: 3_000, interval: 100 })
      .toEqual({ src: '/app/assets/index-cccc3333.js', loads: true });
  });
});
