// qrtrack import and export, run as the real command on a SQLite file.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { unzipSync } from 'fflate';
import { decodePng } from '../render/decode.ts';
import { runCli } from '../support/processes.ts';
import { tempDir } from '../support/test-app.ts';
import { RunningJobs } from '../../src/bulk/running-jobs.ts';
import { parseDatabaseUrl } from '../../src/config.ts';
import { ApiKeysRepository } from '../../src/db/accounts/api-keys-repository.ts';
import { openDatabase } from '../../src/db/database.ts';

const dir = tempDir('qrtrack-cli-bulk-');
const env = { DATABASE_URL: `sqlite:${path.join(dir, 'cli.db')}`, PUBLIC_BASE_URL: 'http://cli.test', LOG_LEVEL: 'silent' };
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
}

describe('qrtrack import and export', () => {
  it('imports a CSV with a default design, then exports it as CSV and JSON with short links and scan totals', () => {
    const rows = [
      'title,contentType,url,text,color1,tags',
      ...Array.from({ length: 2500 }, (_, i) =>
        i % 2 ? `Poster ${i},url,https://example.com/${i},,,print` : `Note ${i},text,,hello ${i},#1a73e8,`,
      ),
    ];
    const csv = file('codes.csv', rows.join('\r\n') + '\r\n');
    expect(runCli(['accounts', 'create', 'shop'], env).status).toBe(0);
    const imported = runCli(['import', csv, '--account', 'shop', '--design-json', '{"dotsStyle":"rounded","color1":"#222222"}'], env);
    expect(imported.stderr).toContain('imported 2,500 codes into account "shop"');
    expect(imported.status).toBe(0);

    const csvOut = path.join(dir, 'out.csv');
    const exported = runCli(['export', '--account', 'shop', '--format', 'csv', '--out', csvOut], env);
    expect(exported.status).toBe(0);
    const lines = fs.readFileSync(csvOut, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(2501);
    expect(lines[0]).toBe(
      'id,code,shortUrl,title,contentType,payload,active,tags,scanCount,createdAt,updatedAt,design,status,activatesAt,expiresAt,maxScans,scanCapBasis,fallbackUrls,rules,forwardQuery,utm,hasPassword,heading',
    );
    expect(lines[1]).toContain(',Poster 2499,url,https://example.com/2499,true,print,0,');
    expect(lines[1]).toMatch(/,http:\/\/cli\.test\/r\/[A-Za-z0-9]{7},/);
    expect(exported.stderr).toContain('exported 2,500 codes of account "shop" as csv');

    const jsonOut = path.join(dir, 'out.json');
    expect(runCli(['export', '--account', 'shop', '--format', 'json', '--tag', 'print', '--out', jsonOut], env).status).toBe(0);
    const items = JSON.parse(fs.readFileSync(jsonOut, 'utf8')).items as { title: string; design: { dotsStyle: string; color1: string } }[];
    expect(items).toHaveLength(1250);
    // The default design fills what a row leaves unset; a row's own value wins.
    expect(items[0]?.design).toMatchObject({ dotsStyle: 'rounded', color1: '#222222' });
    expect(runCli(['export', '--account', 'shop', '--format', 'json', '--content-type', 'text', '--out', jsonOut], env).status).toBe(0);
    const notes = JSON.parse(fs.readFileSync(jsonOut, 'utf8')).items;
    expect(notes[0].design).toMatchObject({ dotsStyle: 'rounded', color1: '#1a73e8' });
  });

  it('refuses an export or import of an account whose export or import runs elsewhere, naming it, and runs once it has ended', async () => {
    expect(runCli(['accounts', 'create', 'busy'], env).status).toBe(0);
    const db = await openDatabase(parseDatabaseUrl(env.DATABASE_URL));
    try {
      const account = (await new ApiKeysRepository(db).findAccountId('busy'))!;
      // The server's export of the account, in another process on the same file.
      const end = await new RunningJobs(db).start(account, 'export', 'a ZIP export of PNG images');
      const refused = runCli(['export', '--account', 'busy', '--format', 'json'], env);
      expect(refused.status).toBe(2);
      expect(refused.stderr).toBe(
        'qrtrack: export: a ZIP export of PNG images of this account is still running; an account runs one export at a time, so retry when it has finished\n',
      );
      const endImport = await new RunningJobs(db).start(account, 'import', 'a CSV import');
      const importRefused = runCli(['import', file('busy.csv', 'title,url\nBusy,https://example.com\n'), '--account', 'busy'], env);
      expect(importRefused.stderr).toMatch(/^qrtrack: import: a CSV import of this account is still running;/);
      await end();
      await endImport();
      const out = runCli(['export', '--account', 'busy', '--format', 'json'], env);
      expect(out.status).toBe(0);
      expect(JSON.parse(out.stdout)).toEqual({ items: [] });
      // The CLI ended its own lease: the next export starts.
      await (await new RunningJobs(db).start(account, 'export', 'a CSV export'))();
    } finally {
      await db.close();
    }
  });

  it('reports a bad row with its line number and stores nothing', () => {
    const rows = ['title,url', ...Array.from({ length: 3000 }, (_, i) => `ok ${i},https://example.com/${i}`)];
    rows[2500] = 'bad,ftp://example.com/x';
    expect(runCli(['accounts', 'create', 'careful'], env).status).toBe(0);
    const res = runCli(['import', file('bad.csv', rows.join('\n')), '--account', 'careful'], env);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toMatch(/^qrtrack: line 2501: url: /m);
    const out = runCli(['export', '--account', 'careful', '--format', 'json'], env);
    expect(JSON.parse(out.stdout)).toEqual({ items: [] });
  });

  it('explains a missing file, account or bad --design-json in one line', () => {
    expect(runCli(['import', path.join(dir, 'missing.csv'), '--account', 'x'], env).stderr).toMatch(/^qrtrack: import: no such file: /);
    expect(runCli(['import', file('x.csv', 'title\nx\n')], env).stderr).toBe('qrtrack: import: --account NAME is required\n');
    expect(runCli(['import', file('y.csv', 'title\nx\n'), '--account', 'x', '--design-json', '{"logoSize":9}'], env).stderr).toBe(
      'qrtrack: --design-json: logoSize: must be a number between 0.1 and 0.5\n',
    );
    expect(runCli(['export', '--account', 'nobody'], env).stderr).toBe('qrtrack: export: no account "nobody"\n');
    // A mistyped account is refused, not made (the codes went to a new account, exit 0).
    const typo = runCli(['import', file('z.csv', 'title\nx\n'), '--account', 'shopp'], env);
    expect(typo.status).not.toBe(0);
    expect(typo.stderr).toBe(
      'qrtrack: import: no account named "shopp" (see qrtrack accounts list; qrtrack accounts create NAME makes one)\n',
    );
    expect(runCli(['accounts', 'list'], env).stdout).not.toContain('shopp');
  });

  it('exports a tagged batch as a ZIP of PNG images that decode to their short links', async () => {
    const csv = file(
      'zip.csv',
      'title,url,tags,resolution\nFront door,https://example.com/a,door,500\nBack door,https://example.com/b,door,500\nElsewhere,https://example.com/c,,500\n',
    );
    expect(runCli(['accounts', 'create', 'zipper'], env).status).toBe(0);
    expect(runCli(['import', csv, '--account', 'zipper'], env).status).toBe(0);
    const zipOut = path.join(dir, 'doors.zip');
    const res = runCli(['export', '--account', 'zipper', '--format', 'png', '--tag', 'door', '--out', zipOut], env);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stderr).toContain('exported 2 codes of account "zipper" as png');
    const files = unzipSync(new Uint8Array(fs.readFileSync(zipOut)));
    expect(
      Object.keys(files)
        .map((n) => n.replace(/-[A-Za-z0-9]{7}\.png$/, ''))
        .sort(),
    ).toEqual(['back-door', 'front-door']);
    for (const [name, png] of Object.entries(files))
      expect(await decodePng(Buffer.from(png))).toBe(`http://cli.test/r/${name.slice(-11, -4)}`);
    expect(runCli(['export', '--account', 'zipper', '--format', 'svg'], env).stderr).toBe(
      'qrtrack: export: --format svg writes a ZIP file: give --out FILE.zip\n',
    );
  });

  it('answers an --out it cannot write with one line naming the file and why, and leaves no file behind', () => {
    expect(runCli(['accounts', 'create', 'writer'], env).status).toBe(0);
    const missing = path.join(dir, 'no-such-folder');
    for (const [format, name] of [
      ['json', 'x.json'],
      ['png', 'x.zip'],
    ] as const) {
      const out = path.join(missing, name);
      const res = runCli(['export', '--account', 'writer', '--format', format, '--out', out], env);
      expect(res.stderr, format).toBe(`qrtrack: export: cannot write ${out}: no such folder\n`);
      expect(res.status, format).toBe(2);
    }
    expect(runCli(['export', '--account', 'writer', '--out', dir], env).stderr).toBe(
      `qrtrack: export: cannot write ${dir}: it is a folder\n`,
    );
    // A successful export is written beside its file first, then renamed: nothing else is left.
    const own = tempDir('qrtrack-cli-out-');
    try {
      expect(runCli(['export', '--account', 'writer', '--format', 'json', '--out', path.join(own, 'all.json')], env).status).toBe(0);
      expect(fs.readdirSync(own)).toEqual(['all.json']);
      expect(JSON.parse(fs.readFileSync(path.join(own, 'all.json'), 'utf8'))).toEqual({ items: [] });
    } finally {
      fs.rmSync(own, { recursive: true, force: true });
    }
  });
});
