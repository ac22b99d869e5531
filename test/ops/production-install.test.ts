// `npm install --omit=dev` after `npm run build` gives a server that runs. The built server
// runs in a folder holding only package.json, the lockfile, dist/ and the packages the lockfile
// installs without dev dependencies (what `npm ci --omit=dev` puts in node_modules), hard-linked
// from this project's node_modules: installing them afresh would compile the native addons.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../scripts/build.mjs';
import { freePort } from '../support/processes.ts';
import { tempDir } from '../support/test-app.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface LockEntry {
  dev?: boolean;
  link?: boolean;
  resolved?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}
interface PackageJson {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8')) as T;
const pkg = readJson<PackageJson>('package.json');
const lock = readJson<{ packages: Record<string, LockEntry> }>('package-lock.json');

/** Mirrors `from` into `to` with hard links (copies across file systems), leaving out its nested node_modules. */
function linkTree(from: string, to: string, skipNodeModules = true): void {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const [src, dst] = [path.join(from, entry.name), path.join(to, entry.name)];
    if (entry.isDirectory()) {
      if (!(skipNodeModules && entry.name === 'node_modules')) linkTree(src, dst, false);
    } else if (entry.isSymbolicLink()) {
      fs.symlinkSync(fs.readlinkSync(src), dst);
    } else {
      try {
        fs.linkSync(src, dst);
      } catch {
        fs.copyFileSync(src, dst);
      }
    }
  }
}

/** The node_modules `npm ci --omit=dev` makes: every lockfile entry not marked dev (optional ones this machine has). */
function installProductionPackages(app: string): string[] {
  const installed: string[] = [];
  for (const [where, entry] of Object.entries(lock.packages)) {
    if (!where.startsWith('node_modules/') || entry.dev) continue;
    // A `file:` dependency is a link to its folder in the project.
    const from = path.join(ROOT, entry.link ? entry.resolved! : where);
    if (!fs.existsSync(from)) continue; // an optional package for another platform
    linkTree(from, path.join(app, where));
    installed.push(where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length));
  }
  return installed;
}

let dir: string;
let app: string;
let installed: string[];
let server: ChildProcess | null = null;
let output = '';

beforeAll(async () => {
  await build({ parts: ['server', 'web'], log: () => undefined });
  dir = tempDir('qrtrack-production-');
  app = path.join(dir, 'app');
  fs.mkdirSync(app);
  for (const file of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(ROOT, file), path.join(app, file));
  // dist/ as the build made it, without the worker bundles the sources make for themselves.
  fs.cpSync(path.join(ROOT, 'dist'), path.join(app, 'dist'), { recursive: true, filter: (from) => path.basename(from) !== '.sources' });
  installed = installProductionPackages(app);
}, 120_000);

afterAll(() => {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a production install (npm install --omit=dev) of a build', () => {
  it('has a lockfile that matches package.json, so npm installs what package.json says', () => {
    const root = lock.packages['']!;
    expect({ dependencies: root.dependencies, devDependencies: root.devDependencies }).toEqual({
      dependencies: pkg.dependencies,
      devDependencies: pkg.devDependencies,
    });
  });

  it('leaves out the build tools and the browser-only packages', () => {
    for (const name of [
      'tsx',
      'esbuild',
      'vite',
      'preact',
      'uplot',
      'd3-geo',
      'topojson-client',
      'world-atlas',
      'i18n-iso-countries',
      'vitest',
      'typescript',
    ]) {
      expect(installed, name).not.toContain(name);
    }
    expect(installed).toContain('fastify');
  });

  it('starts the built server, which answers /healthz, makes a code whose short link redirects, and draws its PNG in a render worker and reads its stats in a read worker', {
    timeout: 120_000,
  }, async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    // Whatever loader hooks the test runner set must not reach the server.
    const { NODE_OPTIONS: _hooks, ...inherited } = process.env;
    const env = {
      ...inherited,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_BASE_URL: url,
      DATABASE_URL: `sqlite:${path.join(dir, 'qrtrack.db')}`,
    };
    server = spawn(process.execPath, ['dist/server.js'], { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
    server.stdout?.on('data', (d) => (output += d));
    server.stderr?.on('data', (d) => (output += d));
    const deadline = Date.now() + 90_000;
    for (;;) {
      expect(server.exitCode, `the server exited: ${output}`).toBeNull();
      if (
        await fetch(`${url}/healthz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      expect(Date.now() < deadline, `the server did not start: ${output}`).toBe(true);
      await new Promise((r) => setTimeout(r, 200));
    }

    const keys = spawnSync(process.execPath, ['dist/cli.js', 'keys', 'create', '--account', 'demo', '--scopes', 'qr:read,qr:write'], {
      cwd: app,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(keys.status, keys.stderr).toBe(0);
    const key = keys.stdout.trim().split('\n').at(-1)!;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const created = await fetch(`${url}/v1/qr`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: 'Menu', url: 'https://example.com/menu', frameStyle: 'bottom-banner', frameText: 'Scan me' }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const { item } = (await created.json()) as { item: { id: string; code: string } };

    const short = await fetch(`${url}/r/${item.code}`, { redirect: 'manual' });
    expect(short.status).toBe(302);
    expect(short.headers.get('location')).toBe('https://example.com/menu');

    const png = await fetch(`${url}/v1/qr/${item.id}/image.png`, { headers });
    expect(png.status, await png.clone().text()).toBe(200);
    expect(
      Buffer.from(await png.arrayBuffer())
        .subarray(1, 4)
        .toString('latin1'),
    ).toBe('PNG');

    // Read in a read worker (dist/read-worker.js), the redirect above already counted (as a bot: no browser asked).
    const stats = await fetch(`${url}/v1/qr/${item.id}/stats`, { headers });
    expect(stats.status, await stats.clone().text()).toBe(200);
    const { totals } = (await stats.json()) as { totals: { scans: number; botScans: number } };
    expect(totals.scans + totals.botScans).toBe(1);

    expect((await fetch(`${url}/app/`)).status).toBe(200);
    server.kill('SIGTERM');
    const code = await new Promise((resolve) => (server!.exitCode !== null ? resolve(server!.exitCode) : server!.on('exit', resolve)));
    expect(code, output).toBe(0);
    expect(output).not.toMatch(/warn|error/i);
  });
});
