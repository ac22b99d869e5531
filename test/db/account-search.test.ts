// Text search on SQLite reads one account's part of the trigram index (issue #30, F1): each
// code is indexed under its account's token, so a search from a small account no longer reads
// every matching code of every account. Also: an existing database is upgraded in place.
import { type Migration, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ApiKeysRepository } from '../../src/db/accounts/api-keys-repository.ts';
import { accountTextMatch, accountToken } from '../../src/db/qr-items/account-text-match.ts';
import { InCodeMigrations, migrateToLatest, runMigrations } from '../../src/db/migrations.ts';
import { QrItemsRepository } from '../../src/db/qr-items/qr-items-repository.ts';
import { resolveDesign } from '../../src/domain/design/design.ts';
import { ON_POSTGRES } from '../support/databases.ts';
import { freshDatabase, openFreshDatabase } from '../support/fresh-database.ts';
import { plansDuring } from '../support/query-plans.ts';

const open = openFreshDatabase;

const design = resolveDesign(undefined);
const titles = async (repo: QrItemsRepository, accountId: string, q: string) =>
  (await repo.list(accountId, { limit: 50, q })).items.map((i) => i.title);

describe.skipIf(ON_POSTGRES)('text search scoped by account (SQLite)', () => {
  it("indexes each code under its account's token: the token's doclist is exactly the account's codes", async () => {
    const d = await open();
    const keys = new ApiKeysRepository(d);
    const repo = new QrItemsRepository(d);
    const small = await keys.ensureAccount('small');
    const big = await keys.ensureAccount('big');
    for (let i = 0; i < 40; i++)
      await repo.create(big, { title: `Big ${i}`, contentType: 'url', payload: `https://big.example/${i}`, fields: {}, design });
    for (let i = 0; i < 3; i++)
      await repo.create(small, { title: `Small ${i}`, contentType: 'url', payload: `https://small.example/${i}`, fields: {}, design });
    const keyOf = async (accountId: string) =>
      (await d.kysely.selectFrom('search_accounts').select('key').where('account_id', '=', accountId).executeTakeFirstOrThrow()).key;
    const count = async (match: string) =>
      (await sql<{ n: number }>`select count(*) as n from qr_items_search where qr_items_search match ${match}`.execute(d.kysely)).rows[0]
        ?.n;
    expect(await count(`account : "${accountToken(await keyOf(small))}"`)).toBe(3);
    expect(await count(`account : "${accountToken(await keyOf(big))}"`)).toBe(40);
    expect(await count(accountTextMatch(await keyOf(small), 'https'))).toBe(3);
    // Past its newest codes (here 2 of 3), the list's search asks the index with the account's
    // token, and finds the same codes; with all its codes among the newest it need not.
    const pastNewest = new QrItemsRepository(d, { window: 5_000, windows: 20, newest: 2 });
    const plans = await plansDuring(d, () => titles(pastNewest, small, 'HTTPS://SMALL'));
    expect(plans.map((p) => p.sql).join('\n')).toMatch(/qr_items_search match/);
    expect(await titles(pastNewest, small, 'HTTPS://SMALL')).toEqual(['Small 2', 'Small 1', 'Small 0']);
    const withinNewest = await plansDuring(d, () => titles(repo, small, 'HTTPS://SMALL'));
    expect(withinNewest.map((p) => p.sql).join('\n')).not.toMatch(/qr_items_search/);
    expect(await titles(repo, small, 'HTTPS://SMALL')).toEqual(['Small 2', 'Small 1', 'Small 0']);
    expect(await titles(repo, small, 'big.example')).toEqual([]);
    // Changed and deleted codes follow.
    const [first] = (await repo.list(small, { limit: 1 })).items;
    await repo.update(small, first!.id, { title: 'Renamed zanzibar' });
    expect(await titles(repo, small, 'zanzibar')).toEqual(['Renamed zanzibar']);
    await repo.softDelete(small, first!.id);
    expect(await titles(repo, small, 'zanzibar')).toEqual([]);
  });

  it('upgrades an existing database: codes made before the upgrade are found, per account, and new ones too; live codes are counted', async () => {
    const fresh = await freshDatabase();
    const config = fresh.config;
    if (config.kind !== 'sqlite') throw new Error('SQLite only');
    // A database as 0009 left it, with codes of two accounts in its old instance-wide index.
    const { SQLite } = await import('../../src/db/sqlite/sqlite-driver.ts');
    const { Kysely: K, SqliteDialect } = await import('kysely');
    const raw = new SQLite(config.file);
    const old = new K<unknown>({ dialect: new SqliteDialect({ database: raw }) });
    const all = await new InCodeMigrations('sqlite').getMigrations();
    const upTo0009: Record<string, Migration> = Object.fromEntries(Object.entries(all).filter(([name]) => name < '0010'));
    await runMigrations(old, 'sqlite', { getMigrations: async () => upTo0009 });
    const now = new Date().toISOString();
    for (const [id, name] of [
      ['acc-a', 'a'],
      ['acc-b', 'b'],
    ])
      await sql`insert into accounts (id, name, created_at) values (${id}, ${name}, ${now})`.execute(old);
    let n = 0;
    for (const [account, title] of [
      ['acc-a', 'Alpha poster'],
      ['acc-b', 'Beta poster'],
      ['acc-a', 'Alpha menu'],
    ] as const) {
      n++;
      const t = new Date(Date.now() - 1000 + n).toISOString();
      await sql`insert into qr_items (id, account_id, code, title, content_type, payload, search_title, search_payload, fields_json, design_json, active, created_at, updated_at)
        values (${`id-${n}`}, ${account}, ${`code${n}`}, ${title}, 'text', ${title}, ${title.toLowerCase()}, ${title.toLowerCase()}, '{}', '{}', 1, ${t}, ${t})`.execute(
        old,
      );
    }
    await migrateToLatest(old, 'sqlite');
    await old.destroy();
    const d = await fresh.open();
    const repo = new QrItemsRepository(d);
    expect(await titles(repo, 'acc-a', 'poster')).toEqual(['Alpha poster']);
    expect(await titles(repo, 'acc-b', 'poster')).toEqual(['Beta poster']);
    expect(await titles(repo, 'acc-a', 'alpha')).toEqual(['Alpha menu', 'Alpha poster']);
    await repo.create('acc-b', { title: 'Beta menu', contentType: 'text', payload: 'x', fields: {}, design });
    expect(await titles(repo, 'acc-b', 'menu')).toEqual(['Beta menu']);
    expect(await titles(repo, 'acc-a', 'menu')).toEqual(['Alpha menu']);
    // 0011 counted each account's live codes.
    const counts = await d.kysely.selectFrom('accounts').select(['id', 'live_codes']).orderBy('id').execute();
    expect(counts.map((c) => [c.id, Number(c.live_codes)])).toEqual([
      ['acc-a', 2],
      ['acc-b', 2],
    ]);
  });
});
