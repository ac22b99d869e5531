// The WAL pacer's restarts (db/sqlite/wal-pacer.ts, holdCommits) on a real WAL, with the real
// checkpointer worker: commits are held only when a restart can follow, not again while the
// WAL-index still shows a WAL already copied, and not every look while a reader keeps old frames.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteCheckpointer } from '../../src/db/sqlite/sqlite-checkpointer.ts';
import { SQLite } from '../../src/db/sqlite/sqlite-driver.ts';
import { WalPacer } from '../../src/db/sqlite/wal-pacer.ts';
import { ON_POSTGRES } from '../support/databases.ts';
import { tempDir } from '../support/test-app.ts';

const dir = tempDir('qrtrack-wal-pacer-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const MAX_FRAMES = 300;

function setUp(name: string) {
  const file = path.join(dir, name);
  const writer = new SQLite(file);
  writer.pragma('journal_mode = WAL');
  writer.pragma('wal_autocheckpoint = 0');
  writer.exec('create table t (id integer primary key, body blob)');
  const insert = writer.prepare('insert into t (body) values (randomblob(3000))');
  // Some twenty pages a commit.
  const commit = writer.transaction(() => {
    for (let i = 0; i < 20; i++) insert.run();
  });
  const checkpointer = new SqliteCheckpointer(file, 60_000);
  let drains = 0;
  const pacer = new WalPacer(
    file,
    () => {
      drains++;
      return checkpointer.drain();
    },
    MAX_FRAMES,
  );
  let held = 0;
  /** A commit, as the scan writer makes it: first asks the pacer, and when held waits to be resumed. */
  const write = async () => {
    const resumed = new Promise<void>((resolve) => {
      if (pacer.holdCommits(resolve)) held++;
      else resolve();
    });
    await resumed;
    commit();
  };
  return {
    file,
    pacer,
    commit,
    write,
    stats: () => ({ drains, held }),
    close: async () => {
      pacer.close();
      await checkpointer.close();
      writer.close();
    },
  };
}

describe.skipIf(ON_POSTGRES)('the WAL pacer (SQLite)', () => {
  it('starts the WAL over again and again under a stream of commits, holding them only for the last copy', async () => {
    const wal = setUp('stream.db');
    try {
      // 8,000 pages, with no automatic checkpoint: only the pacer starts the WAL over.
      const salts = new Set<string | undefined>();
      for (let i = 0; i < 400; i++) {
        await wal.write();
        salts.add(wal.pacer.header()?.salt);
        await sleep(2);
      }
      expect(salts.size).toBeGreaterThanOrEqual(4);
      expect(wal.stats().held).toBeGreaterThan(0);
    } finally {
      await wal.close();
    }
  }, 60_000);

  it('does not hold commits again while the WAL-index still shows the WAL it just copied', async () => {
    const wal = setUp('stale.db');
    try {
      // Commits until one is held; that one is not made.
      let held = false;
      for (let i = 0; i < 400 && !held; i++) {
        held = wal.pacer.holdCommits(() => {});
        if (!held) wal.commit();
        await sleep(2);
      }
      expect(held).toBe(true);
      await wal.pacer.released();
      const drains = wal.stats().drains;
      // No commit since: the WAL-index still says the WAL is long, but it is copied and the next commit starts it over.
      expect(wal.pacer.frames()).toBeGreaterThan(MAX_FRAMES);
      for (let i = 0; i < 4; i++) {
        await sleep(60);
        expect(wal.pacer.holdCommits(() => {})).toBe(false);
      }
      expect(wal.stats().drains).toBe(drains);
      await wal.write();
      expect(wal.pacer.frames()).toBeLessThan(MAX_FRAMES);
    } finally {
      await wal.close();
    }
  }, 60_000);

  it('tries again only now and then while a reader keeps old frames, and starts the WAL over once it is done', async () => {
    const wal = setUp('reader.db');
    const reader = new SQLite(wal.file, { readonly: true });
    try {
      await wal.write();
      reader.exec('begin');
      reader.prepare('select count(*) from t').get();
      // 1.5 s of commits at a look every 50 ms: a drain at most every 2 s after one fails.
      const until = Date.now() + 1_500;
      while (Date.now() < until) {
        await wal.write();
        await sleep(5);
      }
      expect(wal.pacer.frames()).toBeGreaterThan(MAX_FRAMES);
      expect(wal.stats().drains).toBeLessThanOrEqual(4);
      reader.exec('commit');
      let smallest = Number.POSITIVE_INFINITY;
      const later = Date.now() + 8_000;
      while (Date.now() < later && smallest >= MAX_FRAMES) {
        await wal.write();
        smallest = Math.min(smallest, wal.pacer.frames());
        await sleep(5);
      }
      expect(smallest).toBeLessThan(MAX_FRAMES);
    } finally {
      reader.close();
      await wal.close();
    }
  }, 60_000);
});
