// Upgrading a database made before the scan pipeline (migration 0015): every scan already in the
// log was rolled up by the redirect that wrote it, so the aggregator's cursor starts past them.
// Every stats answer (item stats in two time zones, the account overview, counters, recent scans)
// is the same before and after, and scans recorded after the upgrade are counted once, on top.
import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { codecFor } from '../../src/db/codec.ts';
import { type Db, openDatabase } from '../../src/db/database.ts';
import { createSeedingWriter } from '../../src/db/scans/scan-writer.ts';
import { SqliteRollups } from '../../src/db/scans/sqlite-rollups.ts';
import type { Database } from '../../src/db/schema.ts';
import { AccountStatsRepository } from '../../src/db/stats/account-stats-repository.ts';
import { StatsRepository } from '../../src/db/stats/stats-repository.ts';
import type { ScanEvent } from '../../src/domain/scans/scan-batch.ts';
import { accountStats } from '../../src/domain/stats/account-stats.ts';
import { itemStats } from '../../src/domain/stats/item-stats.ts';
import { sqliteBefore } from '../support/old-database.ts';

const DAY = 86_400_000;
const ITEMS = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];

function scans(n: number, seed: number): ScanEvent[] {
  let s = seed;
  const rnd = () => (s = (s * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const now = Date.now();
  return Array.from({ length: n }, (_, i) => ({
    itemId: ITEMS[i % 2] as string,
    accountId: 'acc',
    scannedAt: new Date(now - Math.floor(rnd() * 5 * DAY)).toISOString(),
    isBot: rnd() < 0.15,
    device: rnd() < 0.6 ? 'mobile' : 'desktop',
    os: rnd() < 0.5 ? 'iOS' : 'Android',
    browser: 'Safari',
    country: rnd() < 0.5 ? 'DE' : null,
    referrer: rnd() < 0.3 ? 't.co' : null,
    visitorHash: `v${Math.floor(rnd() * 20)}`,
  }));
}

/** Every stats answer of the account, as a reader sees it. */
async function answers(db: Db) {
  const stats = new StatsRepository(db);
  const out: Record<string, unknown> = {};
  for (const id of ITEMS)
    for (const tz of ['UTC', 'America/New_York']) out[`${id} ${tz}`] = await itemStats(stats, { accountId: 'acc', id, days: 7, tz });
  out.overview = await accountStats(new AccountStatsRepository(db), { accountId: 'acc', days: 7, tz: 'Europe/Berlin' });
  return out;
}

describe.skipIf(process.env.QRTRACK_TEST_DB === 'postgres')('the upgrade to the scan pipeline', () => {
  it('keeps every stats answer and counts new scans once', async () => {
    const { file, raw, k } = await sqliteBefore('0015');
    const now = new Date().toISOString();
    await sql`insert into accounts (id, name, created_at) values ('acc', 'old', ${now})`.execute(k);
    for (const [i, id] of ITEMS.entries()) {
      await sql`insert into qr_items (id, account_id, code, title, content_type, payload, search_title, search_payload, fields_json,
        design_json, active, created_at, updated_at)
        values (${id}, 'acc', ${`Code00${i}`}, 'Old', 'url', 'https://example.com/', 'old', 'x', '{}', '{}', 1, ${now}, ${now})`.execute(k);
    }
    // The old schema's log and roll-ups, made by the same sums the redirect wrote them with: the
    // roll-up code runs once against two scaffolds (a cursor, first_scan_id) taken away again, so the
    // file is exactly what a 0014 server left.
    const old = scans(400, 7);
    const insert = raw.prepare(
      `insert into scans (item_id, scanned_at, is_bot, device, os, browser, country, referrer, visitor_hash, outcome)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, 'redirect')`,
    );
    for (const s of old)
      insert.run(s.itemId, s.scannedAt, s.isBot ? 1 : 0, s.device, s.os, s.browser, s.country, s.referrer, s.visitorHash);
    raw.exec(`create table log_cursors (name text primary key, position integer not null);
      insert into log_cursors values ('rollups', 0);
      alter table scan_visitors add column first_scan_id integer;`);
    new SqliteRollups(raw).applySlice(10_000);
    raw.exec('drop table log_cursors; alter table scan_visitors drop column first_scan_id;');

    const asOld: Db = { kysely: k as Kysely<Database>, codec: codecFor('sqlite'), sqlite: raw, pool: null, close: async () => {} };
    const was = await answers(asOld);
    const recentWas = await new StatsRepository(asOld).recent(ITEMS[0] as string, 20);
    await k.destroy();

    const db = await openDatabase({ kind: 'sqlite', file });
    try {
      expect(await answers(db)).toEqual(was);
      expect(await new StatsRepository(db).recent(ITEMS[0] as string, 20)).toEqual(recentWas);
      const cursor = await db.kysely.selectFrom('log_cursors').select('position').where('name', '=', 'rollups').executeTakeFirstOrThrow();
      expect(Number(cursor.position)).toBe(old.length);

      // New scans after the upgrade: counted once, on top of the old ones.
      const writer = createSeedingWriter(db);
      const added = scans(50, 11).map((s) => ({ ...s, scannedAt: new Date(Date.now() - 1000).toISOString() }));
      for (const s of added) await writer.record(s);
      await writer.drain();
      const humans = (list: ScanEvent[], id: string) => list.filter((s) => s.itemId === id && !s.isBot).length;
      for (const id of ITEMS) {
        const row = await db.kysely.selectFrom('qr_items').select('scan_count').where('id', '=', id).executeTakeFirstOrThrow();
        expect(Number(row.scan_count)).toBe(humans(old, id) + humans(added, id));
      }
    } finally {
      await db.close();
    }
  });
});
