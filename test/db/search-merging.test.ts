// The SQLite search index is merged between turns of the event loop, not inside the commits that
// add codes (migration 0019, db/sqlite/search-index-merger.ts; issue #30, the import row).
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ApiKeysRepository } from '../../src/db/accounts/api-keys-repository.ts';
import type { Db } from '../../src/db/database.ts';
import { QrItemsRepository } from '../../src/db/qr-items/qr-items-repository.ts';
import { SearchIndexMerger } from '../../src/db/sqlite/search-index-merger.ts';
import { SQLite } from '../../src/db/sqlite/sqlite-driver.ts';
import { resolveDesign } from '../../src/domain/design/design.ts';
import { ON_POSTGRES } from '../support/databases.ts';
import { freshDatabase } from '../support/fresh-database.ts';

async function open(): Promise<{ db: Db; file: string }> {
  const fresh = await freshDatabase();
  if (fresh.config.kind !== 'sqlite') throw new Error('SQLite only');
  return { db: await fresh.open(), file: fresh.config.file };
}

const design = resolveDesign(undefined);
const titles = async (repo: QrItemsRepository, accountId: string, q: string) =>
  (await repo.list(accountId, { limit: 100, q })).items.map((i) => i.title).sort();
const integrityCheck = (d: Db) => sql`insert into qr_items_search (qr_items_search, rank) values ('integrity-check', 0)`.execute(d.kysely);

describe.skipIf(ON_POSTGRES)('merging the search index (SQLite)', () => {
  it('is off inside commits: the setting is stored in the index, so every connection has it', async () => {
    const { db: d } = await open();
    const rows = (await sql<{ k: string; v: number }>`select k, v from qr_items_search_config`.execute(d.kysely)).rows;
    expect(rows).toContainEqual({ k: 'automerge', v: 0 });
  });

  it('is done by the server between turns: a backlog of one-code commits is merged without anyone asking, and every code is still found', async () => {
    const { db: d, file } = await open();
    const repo = new QrItemsRepository(d);
    const account = await new ApiKeysRepository(d).ensureAccount('merging');
    // 40 commits of one code each: with automerge off each is a segment of its own, and FTS5's
    // crisis merge (16 on a level) leaves the lowest levels holding more than `usermerge` (4).
    for (let i = 0; i < 40; i++)
      await repo.create(account, {
        title: `Code ${i} zebra`,
        contentType: 'url',
        payload: `https://merge.example/${i}`,
        fields: {},
        design,
      });
    const expected = Array.from({ length: 40 }, (_, i) => `Code ${i} zebra`).sort();
    expect(await titles(repo, account, 'zebra')).toEqual(expected);

    // Unmerged, these 40 segments are 13 rows of the index's data table; merged, 5. The server's
    // merger looks every 250 ms when idle; nothing else here merges.
    const dataRows = async () =>
      (await sql<{ n: number }>`select count(*) as n from qr_items_search_data`.execute(d.kysely)).rows[0]?.n ?? 0;
    let rows = await dataRows();
    for (let waited = 0; rows > 6 && waited < 10_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      rows = await dataRows();
    }
    expect(rows).toBeLessThanOrEqual(6);
    // And another connection to the file finds nothing left to merge.
    const other = new SQLite(file);
    try {
      expect(new SearchIndexMerger(other).step()).toBe(false);
    } finally {
      other.close();
    }
    expect(await titles(repo, account, 'zebra')).toEqual(expected);
    expect(await titles(repo, account, 'merge.example/7')).toEqual(['Code 7 zebra']);
    await integrityCheck(d);
  });

  it('merges a backlog a few pages at a time, each step its own short transaction, until nothing is left', async () => {
    const { db: d, file } = await open();
    await d.close();
    // The file alone, with no server merging: a backlog builds up.
    const raw = new SQLite(file);
    try {
      raw.exec("insert into accounts (id, name, created_at) values ('a', 'a', '2026-01-01T00:00:00.000Z')");
      raw.exec("insert into search_accounts (account_id) values ('a')");
      const insert = raw.prepare("insert into qr_items_search (rowid, account, search_title, search_payload) values (?, 'acct', ?, ?)");
      for (let i = 1; i <= 300; i++) insert.run(i, `title ${i}`, `https://backlog.example/${i}`);
      const dataRows = raw.prepare('select count(*) from qr_items_search_data').pluck();
      const unmerged = dataRows.get() as number;
      const merger = new SearchIndexMerger(raw, { pages: 1 });
      let steps = 0;
      while (merger.step()) steps++;
      expect(steps).toBeGreaterThan(1);
      expect(merger.step()).toBe(false);
      expect(dataRows.get()).toBeLessThan(unmerged);
      const found = raw.prepare('select count(*) from qr_items_search where qr_items_search match \'"backlog"\'').pluck().get();
      expect(found).toBe(300);
      raw.exec("insert into qr_items_search (qr_items_search, rank) values ('integrity-check', 0)");
    } finally {
      raw.close();
    }
  });

  it("does not wait for another process's write lock, and leaves the connection's busy timeout as it was", async () => {
    const { db: d, file } = await open();
    const sqlite = d.sqlite;
    if (!sqlite) throw new Error('SQLite only');
    const other = new SQLite(file);
    other.exec('begin immediate');
    try {
      const started = performance.now();
      expect(new SearchIndexMerger(sqlite).step()).toBe(false);
      // busy_timeout is 5 s on this connection; a step that waited would take that long.
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(sqlite.pragma('busy_timeout', { simple: true })).toBe(5000);
    } finally {
      other.exec('rollback');
      other.close();
    }
  });

  it('leaves a transaction open on its connection alone', async () => {
    const { db: d } = await open();
    const sqlite = d.sqlite;
    if (!sqlite) throw new Error('SQLite only');
    const merger = new SearchIndexMerger(sqlite);
    sqlite.exec('begin');
    try {
      expect(merger.step()).toBe(false);
      expect(sqlite.inTransaction).toBe(true);
    } finally {
      sqlite.exec('rollback');
    }
  });
});
