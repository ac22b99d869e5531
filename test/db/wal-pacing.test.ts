// A long write's slices keep SQLite's WAL short (db/sqlite/wal-pacer.ts): past a few megabytes
// the writer waits, its thread free, for the checkpointer to copy the WAL whole, and the next
// transaction starts it over. Without that the WAL grew to wal_autocheckpoint frames (80 MB),
// and then the writer checkpointed on the thread that answers the short links at every commit.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { betweenSlices, openDatabase } from '../../src/db/database.ts';
import { WAL_PACE_FRAMES } from '../../src/db/sqlite/wal-pacer.ts';
import { tempDir } from '../support/test-app.ts';

const dir = tempDir('qrtrack-wal-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('WAL pacing between the slices of a long write', () => {
  it('keeps the WAL near its pacing size while 60 MiB are written in slices', async () => {
    const file = path.join(dir, 'paced.db');
    const db = await openDatabase({ kind: 'sqlite', file });
    try {
      const sqlite = db.sqlite;
      if (!sqlite) throw new Error('no SQLite handle');
      sqlite.exec('create table blobs (id integer primary key, data blob not null)');
      const insert = sqlite.prepare('insert into blobs (data) values (?)');
      const slice = sqlite.transaction(() => {
        for (let i = 0; i < 128; i++) insert.run(randomBytes(4000));
      });
      let largest = 0;
      for (let i = 0; i < 120; i++) {
        slice();
        await betweenSlices(db);
        largest = Math.max(largest, fs.statSync(`${file}-wal`).size);
      }
      // The WAL file only grows (it is reused from its start): its size is the most it held.
      // Pacing size plus the slices written while a checkpoint was asked for; 80 MB unpaced.
      expect(largest).toBeLessThan(WAL_PACE_FRAMES * 4096 * 1.5);
      expect(sqlite.prepare('select count(*) as n from blobs').get()).toEqual({ n: 128 * 120 });
    } finally {
      await db.close();
    }
  }, 120_000);
});
