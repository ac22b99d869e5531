// Under a steady stream of scans the WAL still starts over (db/sqlite/wal-pacer.ts, holdCommits):
// the scan writer and the aggregator hold their commits for the checkpointer's last copy. Without
// that, the checkpointer's copies never finished before the next commit, the WAL grew to
// wal_autocheckpoint frames (80 MB) and the writer then checkpointed after every commit, on the
// thread that answers short links.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiKeysRepository } from '../../src/db/accounts/api-keys-repository.ts';
import { openDatabase } from '../../src/db/database.ts';
import { QrItemsRepository } from '../../src/db/qr-items/qr-items-repository.ts';
import { createAggregator } from '../../src/db/scans/rollup-aggregator.ts';
import { createScanWriter } from '../../src/db/scans/scan-writer.ts';
import { WalPacer } from '../../src/db/sqlite/wal-pacer.ts';
import { resolveDesign } from '../../src/domain/design/design.ts';
import type { ScanEvent } from '../../src/domain/scans/scan-batch.ts';
import { ON_POSTGRES } from '../support/databases.ts';
import { expectedRollups, storedRollups } from '../support/rollup-check.ts';
import { tempDir } from '../support/test-app.ts';

const dir = tempDir('qrtrack-wal-restart-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe.skipIf(ON_POSTGRES)('the WAL under a steady stream of scans (SQLite)', () => {
  it('starts over again and again while scans spread over many codes are logged and rolled up, none lost', async () => {
    const file = path.join(dir, 'scans.db');
    const db = await openDatabase({ kind: 'sqlite', file });
    const rollups = createAggregator(db);
    try {
      const accountId = await new ApiKeysRepository(db).ensureAccount('wal');
      const items = new QrItemsRepository(db);
      const ids: string[] = [];
      for (let i = 0; i < 1_500; i++) {
        const item = await items.create(accountId, {
          title: `c${i}`,
          contentType: 'url',
          payload: 'https://example.com/',
          fields: {},
          design: resolveDesign(undefined),
        });
        ids.push(item.id);
      }
      // Wired as the server wires them (services.ts): each committed batch handed on and the aggregator nudged.
      const writer = createScanWriter(db, {
        written: (_scans, _seconds, logged) => {
          if (logged !== undefined) rollups.offer(logged);
          rollups.nudge();
        },
        failed: () => {},
      });
      rollups.start((err) => {
        throw err;
      });
      // Only to read the WAL's length (its frames since it last started over) and salt from the WAL-index.
      const wal = new WalPacer(file, async () => false);
      const now = Date.now();
      let sent = 0;
      // The WAL's longest length before each time it started over (its salt changed).
      const peaks: number[] = [];
      let salt = wal.header()?.salt;
      let peak = 0;
      // Each scan a code of its own among 1,500 and a visitor of its own: each touches roll-up
      // rows all over their tables: some 180,000 WAL frames (700 MB) in all.
      for (let turn = 0; turn < 700; turn++) {
        const scans = Array.from({ length: 48 }, (_, i): ScanEvent => {
          const n = sent + i;
          return {
            itemId: ids[(n * 7_919) % ids.length] as string,
            accountId,
            scannedAt: new Date(now - (n % 5) * 3_600_000).toISOString(),
            isBot: n % 11 === 0,
            device: n % 3 === 0 ? 'desktop' : 'mobile',
            os: ['iOS', 'Android', null][n % 3] ?? null,
            browser: ['Safari', 'Chrome', 'Firefox', null][n % 4] ?? null,
            country: ['DE', 'US', 'FR', 'JP', null][n % 5] ?? null,
            referrer: n % 2 === 0 ? null : `r${n % 7}.example`,
            visitorHash: `v${n}`,
          };
        });
        await Promise.all(scans.map((s) => writer.record(s)));
        sent += scans.length;
        const state = wal.header();
        if (state !== null && state.salt !== salt) {
          peaks.push(peak);
          salt = state.salt;
          peak = 0;
        }
        peak = Math.max(peak, state?.frames ?? 0);
      }
      const framesAtEnd = wal.frames();
      wal.close();
      await rollups.catchUp(60_000).catch((err: unknown) => {
        throw new Error(`the aggregator did not catch up: ${JSON.stringify(rollups.lag())}, ${framesAtEnd} frames in the WAL`, {
          cause: err,
        });
      });
      // Without the restarts the WAL started over only once it reached wal_autocheckpoint
      // (20,000 frames), where the writer's own connection checkpoints: 19,811–20,002 frames before
      // each. With them it starts over again and again well before that, after 4,000 frames plus
      // what the flat-out writer commits during the copies: 6,500–17,900 here, at most 15,763 in
      // a CI run beside the whole suite.
      const early = peaks.filter((p) => p < 16_000);
      expect(early.length, `the WAL's lengths before it started over: ${peaks.join(', ')}`).toBeGreaterThanOrEqual(3);
      const expected = await expectedRollups(db);
      expect(expected.logged).toBe(sent);
      expect(expected.position).toBe(sent);
      expect(await storedRollups(db)).toEqual(expected.snapshot);
    } finally {
      await rollups.stop();
      await db.close();
    }
  }, 180_000);
});
