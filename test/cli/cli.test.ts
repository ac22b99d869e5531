// The qrtrack command as an operator runs it: real processes on the database a real server uses.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS, dispatch } from '../../src/cli/registry.ts';
import { SQLite } from '../../src/db/sqlite/sqlite-driver.ts';
import { type RunningServer, runCliAsync, runCli as runCliWith, startServer } from '../support/processes.ts';
import { tempDir } from '../support/test-app.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

let dir: string;
let env: Record<string, string>;
let server: RunningServer;
let menu: { id: string; code: string };
const cli = (...args: string[]) => runCliAsync(args, env);

beforeAll(async () => {
  dir = tempDir('qrtrack-cli-');
  env = { DATABASE_URL: `sqlite:${path.join(dir, 'qrtrack.db')}` };
  server = await startServer(env);
  env.PUBLIC_BASE_URL = server.url;
  const key = (await cli('keys', 'create', '--account', 'demo', '--scopes', 'qr:read,qr:write')).stdout.trim().split('\n').at(-1)!;
  const post = async (body: object) => {
    const res = await fetch(`${server.url}/v1/qr`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { item: { id: string; code: string } }).item;
  };
  menu = await post({ title: 'Spring menu', url: 'https://example.com/menu', dotsStyle: 'rounded' });
  await post({ title: '=Guest, "Wi-Fi"', contentType: 'wifi', wifiSsid: 'Cafe', wifiPass: 'secret' });
  for (const ua of [IPHONE, IPHONE, WINDOWS]) {
    const res = await fetch(`${server.url}/r/${menu.code}`, {
      redirect: 'manual',
      headers: { 'user-agent': ua, referer: 'https://news.example.org/a' },
    });
    expect(res.status).toBe(302);
  }
});
afterAll(async () => {
  await server?.stop('SIGTERM');
  fs.rmSync(dir, { recursive: true, force: true });
});

// Every case starts real processes, a few seconds each on a busy machine.
describe('qrtrack --help', { timeout: 180_000 }, () => {
  it('lists every command and exits 0', async () => {
    const res = await cli('--help');
    expect(res.status).toBe(0);
    for (const c of COMMANDS) expect(res.stdout).toContain(`  ${c.words.join(' ')} `);
    expect((await cli('help')).stdout).toBe(res.stdout);
  });

  it('prints help for every command with --help, and runs nothing', async () => {
    for (const c of COMMANDS) {
      const lines: string[] = [];
      expect(await dispatch([...c.words, '--json', '--help'], { out: (l) => lines.push(l), note: (l) => lines.push(l) })).toBe(true);
      expect(lines[0], c.words.join(' ')).toBe(`usage: qrtrack ${[...c.words, c.synopsis].filter(Boolean).join(' ')}`);
    }
    // As processes: `serve --help` must not start a server, `keys create --help` must not make a key.
    for (const args of [
      ['serve', '--help'],
      ['keys', 'create', '--account', 'demo', '--scopes', 'qr:read', '--help'],
      ['stats', '-h'],
    ]) {
      const res = await cli(...args);
      expect(res.status, args.join(' ')).toBe(0);
      expect(res.stdout).toMatch(new RegExp(`^usage: qrtrack ${args[0]}`));
      expect(res.stderr).toBe('');
    }
    expect(JSON.parse((await cli('keys', 'list', '--account', 'demo', '--json')).stdout)).toHaveLength(1);
  });

  it('answers unknown commands, options and values with one line and a non-zero exit', async () => {
    const runs: Promise<{ args: readonly string[]; message: string; res: Awaited<ReturnType<typeof cli>> }>[] = [];
    for (const [args, message] of [
      [[], 'qrtrack: no command given; see qrtrack --help'],
      [['frobnicate'], 'qrtrack: unknown command; see qrtrack --help'],
      [['qr', 'frob'], 'qrtrack: qr: unknown command "frob" (list, show); see qrtrack qr --help'],
      [['qr', 'list', '--acount', 'demo'], 'qrtrack: qr list: unknown option --acount; see qrtrack qr list --help'],
      [['qr', 'list', '--account', 'nobody'], 'qrtrack: qr list: no account named "nobody" (see qrtrack accounts list)'],
      [['qr', 'show', 'zzzzzzz'], 'qrtrack: qr show: no QR item with code or id "zzzzzzz"'],
      [['stats', menu.code, '--days', '91'], 'qrtrack: stats: --days must be an integer from 1 to 90, got "91"'],
      [['stats', menu.code, '--tz', 'Mars/Base'], 'qrtrack: tz: must be an IANA time zone such as Europe/Berlin'],
      [['accounts', 'create', 'demo'], 'qrtrack: account "demo" already exists'],
    ] as const) {
      runs.push(cli(...args).then((res) => ({ args, message, res })));
    }
    for (const { args, message, res } of await Promise.all(runs)) {
      expect(res.status, args.join(' ')).not.toBe(0);
      expect(res.stderr, args.join(' ')).toBe(`${message}\n`);
      expect(res.stdout).toBe('');
    }
  });
});

describe('qrtrack options', { timeout: 180_000 }, () => {
  it('answers an unknown option the same way for every command, whichever module runs it', async () => {
    const runs = COMMANDS.map(async (c) => ({ name: c.words.join(' '), res: await cli(...c.words, '--bogus') }));
    for (const { name, res } of await Promise.all(runs)) {
      expect(res.stderr, name).toBe(`qrtrack: ${name}: unknown option --bogus; see qrtrack ${name} --help\n`);
      expect(res.status, name).toBe(2);
      expect(res.stdout, name).toBe('');
    }
  });

  it('answers a missing or unwanted option value in one line that points at the help', async () => {
    const runs: Promise<{ args: readonly string[]; message: string; res: Awaited<ReturnType<typeof cli>> }>[] = [];
    for (const [args, message] of [
      [['export', '--account', 'demo', '--out'], 'export: option --out needs a value; see qrtrack export --help'],
      [['export', '--out', '--account', 'demo'], 'export: option --out needs a value; see qrtrack export --help'],
      [
        ['keys', 'create', '--scopes', 'qr:read', '--account'],
        'keys create: option --account needs a value; see qrtrack keys create --help',
      ],
      [['import', 'x.csv', '--format', 'csv'], 'import: unknown option --format; see qrtrack import --help'],
      [['users', 'reset-link', 'a@example.com', '--json'], 'users reset-link: unknown option --json; see qrtrack users reset-link --help'],
      [['qr', 'list', '--account'], 'qr list: option --account needs a value; see qrtrack qr list --help'],
      [['qr', 'list', '--account', 'demo', '--json=yes'], 'qr list: option --json takes no value; see qrtrack qr list --help'],
    ] as const) {
      runs.push(cli(...args).then((res) => ({ args, message, res })));
    }
    for (const { args, message, res } of await Promise.all(runs)) {
      expect(res.stderr, args.join(' ')).toBe(`qrtrack: ${message}\n`);
      expect(res.status, args.join(' ')).toBe(2);
    }
  });
});

describe('qrtrack commands', { timeout: 180_000 }, () => {
  it('creates and lists accounts with their items, keys and scans', async () => {
    expect((await cli('accounts', 'create', 'acme')).stdout).toMatch(/^created account "acme" \([0-9a-f-]{36}\)\n$/);
    const list = await cli('accounts', 'list');
    expect(list.stdout.split('\n')[0]).toMatch(/^NAME\s+ITEMS\s+KEYS\s+SCANS\s+CREATED\s+ID$/);
    expect(list.stdout).toMatch(/\nacme\s+0\s+0\s+0\s/);
    expect(list.stdout).toMatch(/\ndemo\s+2\s+1\s+3\s/);
    const json = JSON.parse((await cli('accounts', 'list', '--json')).stdout) as { name: string; items: number; scans: number }[];
    expect(json.map((a) => [a.name, a.items, a.scans])).toEqual([
      ['acme', 0, 0],
      ['demo', 2, 3],
    ]);
  });

  it('lists and shows QR codes by code or id', async () => {
    const list = await cli('qr', 'list', '--account', 'demo');
    expect(list.status).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`\\n${menu.code}\\s+active\\s+3\\s+url\\s+Spring menu\\s+https://example.com/menu\\n`));
    const wifi = JSON.parse((await cli('qr', 'list', '--account', 'demo', '--type', 'wifi', '--json')).stdout) as { payload: string }[];
    expect(wifi.map((i) => i.payload)).toEqual(['WIFI:T:WPA;S:Cafe;P:secret;;']);
    const show = await cli('qr', 'show', menu.code);
    expect(show.stdout).toContain(`short link  ${server.url}/r/${menu.code}`);
    expect(show.stdout).toMatch(/design\s+dotsStyle=rounded\n/);
    const byId = JSON.parse((await cli('qr', 'show', menu.id.toUpperCase(), '--json')).stdout) as {
      code: string;
      account: string;
      shortUrl: string;
    };
    expect(byId).toMatchObject({ code: menu.code, account: 'demo', shortUrl: `${server.url}/r/${menu.code}` });
  });

  it('shows stats with a sparkline, breakdowns and recent scans, and the API body with --json', async () => {
    const res = await cli('stats', menu.code, '--days', '7', '--tz', 'Europe/Berlin');
    expect(res.status, res.stderr).toBe(0);
    const lines = res.stdout.split('\n');
    expect(lines[0]).toMatch(/^Spring menu \(\w{7}\): 7 days to \d{4}-\d\d-\d\d, Europe\/Berlin$/);
    expect(lines[1]).toBe('  3 scans, 2 unique in range · 3 scans, 2 unique in all · 0 bot scans left out');
    expect(lines[2]).toMatch(/^ {2}\d{4}-\d\d-\d\d ▁{6}█ \d{4}-\d\d-\d\d {3}busiest day: 3$/);
    expect(res.stdout).toMatch(/\ndevice\n {2}mobile +2 +67% +█{20}\n {2}desktop +1 +33% +█{10}\n/);
    expect(res.stdout).toMatch(/\nreferrer\n {2}news\.example\.org +3 +100% /);
    expect(res.stdout).toMatch(/\nrecent\n( {2}\S+Z +(mobile|desktop) .*\n){3}/);
    const json = JSON.parse((await cli('stats', menu.id, '--json')).stdout) as { days: number; totals: { scans: number } };
    expect(json).toMatchObject({ days: 14, totals: { scans: 3 } });
  });

  it('says which database it works on when DATABASE_URL is not set', () => {
    // Beside a server on PostgreSQL, `keys create` without DATABASE_URL made its key in a new
    // SQLite file, silently. Run from an empty folder, as an operator might.
    const cwd = tempDir('qrtrack-cli-nodb-');
    const { DATABASE_URL: _unset, ...rest } = process.env;
    const res = spawnSync(
      process.execPath,
      ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href, path.join(ROOT, 'src/cli.ts'), 'accounts', 'list'],
      {
        cwd,
        env: { ...rest, LOG_LEVEL: 'silent' },
        encoding: 'utf8',
      },
    );
    expect(res.status, res.stderr).toBe(0);
    expect(res.stderr).toBe('qrtrack: DATABASE_URL is not set: working on the SQLite file ./data/qrtrack.db\n');
    expect(fs.existsSync(path.join(cwd, 'data', 'qrtrack.db'))).toBe(true);
    // With it set, nothing is said.
    expect(runCliWith(['accounts', 'list'], env).stderr).toBe('');
    fs.rmSync(cwd, { recursive: true, force: true });
  });

  it('backs up the live database, scans still in the write-ahead log included', async () => {
    const file = path.join(dir, 'backup.db');
    const res = await cli('backup', file);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^backed up [\d,]+ pages \(\d+\.\d MiB\) to .*backup\.db\n$/);
    const copy = new SQLite(file, { readonly: true });
    try {
      expect(copy.prepare('select count(*) as n from scans').get()).toEqual({ n: 3 });
      expect(copy.prepare('select title from qr_items order by title').all()).toEqual([
        { title: '=Guest, "Wi-Fi"' },
        { title: 'Spring menu' },
      ]);
    } finally {
      copy.close();
    }
    const again = await cli('backup', file);
    expect(again.status).not.toBe(0);
    expect(again.stderr).toContain(`backup: ${file} already exists; give a new file name`);
    expect((await cli('backup')).stderr).toContain('backup: give one FILE to write');
  });

  it('shows a dynamic code with its status, lifecycle and rules', async () => {
    const key = (await cli('keys', 'create', '--account', 'dynamic', '--scopes', 'qr:write')).stdout.trim().split('\n').at(-1)!;
    const res = await fetch(`${server.url}/v1/qr`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'Campaign',
        url: 'https://example.com/c',
        expiresAt: '2031-01-01T00:00:00Z',
        maxScans: 500,
        password: 'poster password',
        utm: { campaign: 'spring' },
        rules: [
          { name: 'Germany', conditions: [{ type: 'country', op: 'in', values: ['DE'] }], destination: 'https://example.de/' },
          {
            conditions: [{ type: 'os', op: 'in', values: ['android'] }],
            split: [
              { destination: 'https://example.com/a', weight: 70 },
              { destination: 'https://example.com/b', weight: 30 },
            ],
          },
        ],
      }),
    });
    expect(res.status).toBe(201);
    const dynamic = ((await res.json()) as { item: { code: string } }).item;
    const show = await cli('qr', 'show', dynamic.code);
    expect(show.status, show.stderr).toBe(0);
    expect(show.stdout).toMatch(/status\s+active\n/);
    expect(show.stdout).toMatch(/expires\s+2031-01-01T00:00:00\.000Z\n/);
    expect(show.stdout).toMatch(/scan cap\s+0 of 500 \(human scans\)\n/);
    expect(show.stdout).toMatch(/password\s+set\n/);
    expect(show.stdout).toMatch(/utm\s+utm_campaign=spring\n/);
    expect(show.stdout).toMatch(/\n {2}1\. Germany \[r_\w{8}\] country in DE → https:\/\/example\.de\/\n/);
    expect(show.stdout).toMatch(/\n {2}2\. \[r_\w{8}\] os in android → 70% https:\/\/example\.com\/a, 30% https:\/\/example\.com\/b\n/);
    expect(show.stdout).not.toContain('poster password');
  });
});
