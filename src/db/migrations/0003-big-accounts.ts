// Big accounts: lists and search that stay flat at a million codes.
// - Folded copies of title and payload (`search_title`, `search_payload`), written by the
//   application, so both databases match `q` on the same text (see domain/qr-items/search-text.ts).
// - A trigram index over them: FTS5 with the trigram tokenizer on SQLite, pg_trgm GIN on
//   PostgreSQL.
// - One partial index per list filter, over live items only, each ending in
//   (created_at, id) so every filter reads its page in index order.
// - Idempotency keys: the first answer to a create or batch, kept per account and key.
// - Tags: one row per code and tag, with the code's creation time, so a tag's codes are
//   read newest first straight from one index.
import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../codec.ts';

type AnyDb = Kysely<unknown>;

// A frozen copy of foldForSearch as of this migration: migrations never import model code.
const fold = (s: string) => s.normalize('NFC').toLowerCase().replaceAll('ς', 'σ');

const LIST_INDEXES: [string, string[]][] = [
  ['qr_items_live_created', ['account_id', 'created_at', 'id']],
  ['qr_items_live_active', ['account_id', 'active', 'created_at', 'id']],
  ['qr_items_live_kind', ['account_id', 'content_type', 'created_at', 'id']],
  ['qr_items_live_active_kind', ['account_id', 'active', 'content_type', 'created_at', 'id']],
];

export function bigAccounts(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .alterTable('qr_items')
        .addColumn('search_title', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .alterTable('qr_items')
        .addColumn('search_payload', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await backfill(db);

      // The partial indexes replace the plain one: deleted items are never listed.
      await db.schema.dropIndex('qr_items_account_created').execute();
      for (const [name, columns] of LIST_INDEXES) {
        await db.schema.createIndex(name).on('qr_items').columns(columns).where(sql.ref('deleted_at'), 'is', null).execute();
      }

      if (dialect === 'sqlite') await sqliteTextIndex(db);
      else await postgresTextIndex(db);

      await db.schema
        .createTable('idempotency_keys')
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('response', 'text', (c) => c.notNull())
        .addColumn('created_at', dialect === 'postgres' ? sql`timestamptz` : sql`text`, (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'key'])
        .execute();
      await db.schema
        .createTable('qr_tags')
        .addColumn('tag_account_id', 'text', (c) => c.notNull())
        .addColumn('tag', 'text', (c) => c.notNull())
        .addColumn('tagged_item_id', 'text', (c) => c.notNull())
        .addColumn('item_created_at', dialect === 'postgres' ? sql`timestamptz` : sql`text`, (c) => c.notNull())
        .addPrimaryKeyConstraint('qr_tags_pk', ['tagged_item_id', 'tag'])
        .execute();
      // Carries ?tag= (newest first), the tag list with its counts, and rename and delete.
      await db.schema
        .createIndex('qr_tags_by_tag')
        .on('qr_tags')
        .columns(['tag_account_id', 'tag', 'item_created_at', 'tagged_item_id'])
        .execute();
      // Carries the pruning of expired keys.
      await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();
    },
  };
}

async function backfill(db: AnyDb): Promise<void> {
  let after = '';
  for (;;) {
    const { rows } = await sql<{ id: string; title: string; payload: string }>`
      select id, title, payload from qr_items where id > ${after} order by id limit 1000`.execute(db);
    for (const r of rows) {
      await sql`update qr_items set search_title = ${fold(r.title)}, search_payload = ${fold(r.payload)} where id = ${r.id}`.execute(db);
    }
    const last = rows.at(-1);
    if (!last) return;
    after = last.id;
  }
}

async function sqliteTextIndex(db: AnyDb): Promise<void> {
  // External content: the index stores trigrams only, the text stays in qr_items. The
  // columns are folded already, so the tokenizer must not fold again (case_sensitive 1).
  await sql`create virtual table qr_items_search using fts5(
    search_title, search_payload, content='qr_items', content_rowid='rowid', tokenize='trigram case_sensitive 1')`.execute(db);
  await sql`create trigger qr_items_search_insert after insert on qr_items begin
    insert into qr_items_search(rowid, search_title, search_payload) values (new.rowid, new.search_title, new.search_payload);
  end`.execute(db);
  await sql`create trigger qr_items_search_delete after delete on qr_items begin
    insert into qr_items_search(qr_items_search, rowid, search_title, search_payload) values ('delete', old.rowid, old.search_title, old.search_payload);
  end`.execute(db);
  await sql`create trigger qr_items_search_update after update of search_title, search_payload on qr_items begin
    insert into qr_items_search(qr_items_search, rowid, search_title, search_payload) values ('delete', old.rowid, old.search_title, old.search_payload);
    insert into qr_items_search(rowid, search_title, search_payload) values (new.rowid, new.search_title, new.search_payload);
  end`.execute(db);
  await sql`insert into qr_items_search(qr_items_search) values ('rebuild')`.execute(db);
}

async function postgresTextIndex(db: AnyDb): Promise<void> {
  // The extension is one per database; it may already live in another schema (several
  // qrtrack schemas can share a database), so the operator class is named with its schema.
  const schema = await trigramSchema(db);
  const ops = sql.raw(`${quoteIdent(schema)}.gin_trgm_ops`);
  // New entries wait in a pending list that every search reads from end to end until
  // vacuum merges it; a small list (256 kB instead of 4 MB) bounds what a search pays.
  for (const column of ['search_title', 'search_payload']) {
    await sql`create index ${sql.raw(`qr_items_${column}`)} on qr_items using gin (${sql.ref(column)} ${ops})
      with (gin_pending_list_limit = 256) where deleted_at is null`.execute(db);
  }
}

async function trigramSchema(db: AnyDb): Promise<string> {
  const find = async () =>
    (
      await sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
        where e.extname = 'pg_trgm'`.execute(db)
    ).rows[0]?.schema;
  const existing = await find();
  if (existing) return existing;
  const hasPublic =
    (await sql<{ n: number }>`select count(*)::int as n from pg_namespace where nspname = 'public'`.execute(db)).rows[0]?.n === 1;
  await sql.raw(`create extension if not exists pg_trgm${hasPublic ? ' schema public' : ''}`).execute(db);
  const created = await find();
  if (!created) throw new Error('pg_trgm: the extension could not be created');
  return created;
}

function quoteIdent(name: string): string {
  return '"' + name.replaceAll('"', '""') + '"';
}
