// The SQLite driver on every supported Node. better-sqlite3 12 built against Node 24.19+
// aborts the process (`RemoveEnvironmentCleanupHook … (env) != nullptr`) when V8 collects
// prepared statements outside JavaScript, as its background GC tasks do; Kysely prepares
// a statement per query, so a busy server was one idle moment from a crash.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sqliteDriverName, sqliteDriverPath } from '../../src/db/sqlite/sqlite-driver.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

function packageVersionOf(modulePath: string): string {
  let dir = path.dirname(modulePath);
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

// Thousands of queries through the real database layer, then an idle pause for V8's
// background collector, then a clean close. The child prints "ok" only if it got there.
const WORKLOAD = `
import { openDatabase } from ${JSON.stringify(path.join(ROOT, 'src/db/database.ts'))};
const db = await openDatabase({ kind: 'sqlite', file: process.argv[2] });
for (let i = 0; i < 3000; i++) await db.kysely.selectFrom('accounts').select('id').where('name', '=', 'n' + i).execute();
await new Promise((r) => setTimeout(r, 1500));
await db.close();
console.log('ok');
`;

describe('the SQLite driver', () => {
  it('is better-sqlite3 13 (Node-API) on every Node with Node-API 10, and the 12.x line only before it', () => {
    const nodeApi10 = Number(process.versions.napi) >= 10;
    expect(sqliteDriverName).toBe(nodeApi10 ? 'better-sqlite3' : 'better-sqlite3-node20');
    expect(packageVersionOf(sqliteDriverPath)).toMatch(nodeApi10 ? /^13\./ : /^12\./);
  });

  it('lets a process run thousands of queries, go idle and close without aborting', { timeout: 60_000 }, () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qrtrack-driver-'));
    try {
      const script = path.join(dir, 'workload.mts');
      fs.writeFileSync(script, WORKLOAD);
      const res = spawnSync(process.execPath, ['--import', 'tsx', script, path.join(dir, 'q.db')], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 50_000,
      });
      expect({ status: res.status, signal: res.signal, stdout: res.stdout.trim() }, res.stderr).toEqual({
        status: 0,
        signal: null,
        stdout: 'ok',
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
