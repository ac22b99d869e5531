// Text search scoped by account on SQLite. With one doclist a trigram for all accounts, a small
// account's search read every account's codes (docs/performance.md, F1).
//
// Each code's row in the index now also holds its account's key: three characters of a
// private-use plane that no folded text holds, so the trigram tokenizer makes of them one
// token, whose doclist is exactly that account's codes. A search asks for that token AND the
// query's phrase in the two text columns; FTS5 steps through the account's doclist and seeks
// the phrase's, so it reads in proportion to the account, not to the instance.
//
// The keys are numbers handed out by `search_accounts` (an INTEGER PRIMARY KEY, which VACUUM
// keeps; never OR IGNORE, which an outer INSERT OR REPLACE would turn into a new key), taken by
// the triggers themselves, so every insert path (the app, an operator's SQL)
// indexes a code correctly. The index is contentless with deletes (SQLite 3.43+): it stores
// the trigrams only, and a row is removed by its rowid. PostgreSQL is unchanged (pg_trgm).
import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../codec.ts';

type AnyDb = Kysely<unknown>;

/**
 * The account's token, as SQL over its key `k`: three characters from U+F0000, base 65,536
 * digits. The application builds the same (db/qr-items/account-text-match.ts); they must agree.
 */
const tokenOf = (k: string) => `char(983040 + ((${k}) >> 32) % 65536, 983040 + ((${k}) >> 16) % 65536, 983040 + (${k}) % 65536)`;
const keyOf = (account: string) => `(select key from search_accounts where account_id = ${account})`;

export function accountSearch(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      if (dialect !== 'sqlite') return;
      for (const trigger of ['insert', 'delete', 'update']) await sql.raw(`drop trigger qr_items_search_${trigger}`).execute(db);
      await sql`drop table qr_items_search`.execute(db);
      await sql`create table search_accounts (key integer primary key, account_id text not null unique references accounts(id))`.execute(
        db,
      );
      await sql`create virtual table qr_items_search using fts5(
        account, search_title, search_payload, content='', contentless_delete=1, tokenize='trigram case_sensitive 1')`.execute(db);
      await sql`insert into search_accounts (account_id) select id from accounts order by created_at, id`.execute(db);
      await sql
        .raw(`insert into qr_items_search (rowid, account, search_title, search_payload)
        select q.rowid, ${tokenOf('a.key')}, q.search_title, q.search_payload from qr_items q join search_accounts a on a.account_id = q.account_id`)
        .execute(db);
      await sql
        .raw(`create trigger qr_items_search_insert after insert on qr_items begin
        insert into search_accounts (account_id) select new.account_id
          where not exists (select 1 from search_accounts where account_id = new.account_id);
        insert into qr_items_search (rowid, account, search_title, search_payload)
          values (new.rowid, ${tokenOf(keyOf('new.account_id'))}, new.search_title, new.search_payload);
      end`)
        .execute(db);
      await sql`create trigger qr_items_search_delete after delete on qr_items begin
        delete from qr_items_search where rowid = old.rowid;
      end`.execute(db);
      await sql
        .raw(`create trigger qr_items_search_update after update of search_title, search_payload on qr_items begin
        delete from qr_items_search where rowid = old.rowid;
        insert into qr_items_search (rowid, account, search_title, search_payload)
          values (new.rowid, ${tokenOf(keyOf('new.account_id'))}, new.search_title, new.search_payload);
      end`)
        .execute(db);
    },
  };
}
