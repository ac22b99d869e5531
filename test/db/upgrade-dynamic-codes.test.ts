// Upgrading a database made before dynamic codes (migration 0012) keeps every code and scan as
// it was: codes gain the default lifecycle and routing, and each stored scan an outcome
// (redirect for the kinds that redirect, landing for the others), so no scan is lost from or
// added to any count.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.ts';
import { QrItemsRepository } from '../../src/db/qr-items/qr-items-repository.ts';
import { StatsRepository } from '../../src/db/stats/stats-repository.ts';
import { sqliteBefore } from '../support/old-database.ts';

describe.skipIf(process.env.QRTRACK_TEST_DB === 'postgres')('the upgrade to dynamic codes', () => {
  it('gives old codes the defaults and old scans their outcome, counting the same', async () => {
    const { file, k } = await sqliteBefore('0012');
    const now = new Date().toISOString();
    await sql`insert into accounts (id, name, created_at) values ('acc', 'old', ${now})`.execute(k);
    for (const [id, code, kind] of [
      ['00000000-0000-4000-8000-000000000001', 'Aaaaaaa', 'url'],
      ['00000000-0000-4000-8000-000000000002', 'Bbbbbbb', 'text'],
    ] as const) {
      await sql`insert into qr_items (id, account_id, code, title, content_type, payload, search_title, search_payload, fields_json,
        design_json, active, scan_count, created_at, updated_at)
        values (${id}, 'acc', ${code}, 'Old', ${kind}, 'https://example.com/', 'old', 'x', '{}', '{}', 1, 3, ${now}, ${now})`.execute(k);
      for (let i = 0; i < 3; i++) {
        await sql`insert into scans (item_id, scanned_at, is_bot, device, visitor_hash) values (${id}, ${now}, 0, 'mobile', ${`v${i}`})`.execute(
          k,
        );
      }
    }
    await k.destroy();

    const db = await openDatabase({ kind: 'sqlite', file });
    try {
      const outcomes = await db.kysely.selectFrom('scans').select(['item_id', 'outcome']).orderBy('item_id').execute();
      expect(outcomes.map((o) => o.outcome)).toEqual(['redirect', 'redirect', 'redirect', 'landing', 'landing', 'landing']);
      const items = new QrItemsRepository(db);
      const url = await items.find('acc', '00000000-0000-4000-8000-000000000001');
      expect(url).toMatchObject({
        scanCount: 3,
        activatesAt: null,
        expiresAt: null,
        maxScans: null,
        scanCapBasis: 'human',
        capCount: 0,
        rules: [],
        forwardQuery: true,
        utm: {},
        fallbackUrls: {},
        hasPassword: false,
      });
      const target = await items.findByCode('Aaaaaaa');
      expect(target).toMatchObject({ opensMs: null, endsMs: null, maxScans: null, passwordHash: null });
      expect(await new StatsRepository(db).recent('00000000-0000-4000-8000-000000000001', 20)).toHaveLength(3);
    } finally {
      await db.close();
    }
  });
});
