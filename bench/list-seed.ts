// Seeds one account with N codes inside the database itself (a recursive CTE on SQLite,
// generate_series on PostgreSQL): a million rows in seconds rather than the minutes the
// API would take. The rows look like a ticketing campaign: mostly url codes, some text,
// wifi and email, 1 % paused (half of them email codes), a title word shared by a tenth of the codes, and the
// folded search copies the application would have written (the text is ASCII, so
// lower() folds it exactly as foldForSearch does).
import { sql } from 'kysely';
import type { Db } from '../src/db/database.ts';
import { resolveDesign } from '../src/domain/design/design.ts';

/** Words cycled through the titles: each is in a tenth of an account's codes. */
export const TITLE_WORDS = ['spring', 'summer', 'autumn', 'winter', 'gala', 'concert', 'museum', 'parking', 'menu', 'poster'];

/**
 * Inserts `count` codes for `accountId`; `tag` (one letter) keeps ids and codes of two
 * seeded accounts apart. Creation times are one millisecond apart, ending now.
 */
export async function seedCodes(db: Db, accountId: string, count: number, tag: string): Promise<void> {
  const design = JSON.stringify(resolveDesign(undefined));
  const start = Date.now() - count;
  const words = TITLE_WORDS.map((w) => `'${w}'`).join(',');
  if (db.codec.dialect === 'sqlite') {
    const sqlite = db.sqlite;
    if (!sqlite) throw new Error('no SQLite handle');
    const row = `
      with recursive s(n) as (select 1 union all select n + 1 from s where n < @count),
      r as (select n,
        'ticket ' || n || ' ' || json_extract(json_array(${words}), '$[' || (n % 10) || ']') as title,
        case when n % 20 = 0 then 'text' when n % 20 = 1 then 'wifi' when n % 50 = 2 then 'email' else 'url' end as kind
        from s)
      insert into qr_items (id, account_id, code, title, content_type, payload, search_title, search_payload, fields_json, design_json,
        active, scan_count, unique_scan_count, bot_scan_count, created_at, updated_at)
      select printf('%08x-0000-4000-8000-%012x', unicode(@tag), n), @account, @tag || printf('%06x', n), title, kind,
        case kind when 'url' then 'https://example.com/t/' || n when 'text' then 'seat ' || n when 'wifi' then 'WIFI:T:WPA;S:hall' || n || ';P:x;;'
          else 'mailto:desk' || n || '@example.com' end,
        title, lower(case kind when 'url' then 'https://example.com/t/' || n when 'text' then 'seat ' || n when 'wifi' then 'WIFI:T:WPA;S:hall' || n || ';P:x;;'
          else 'mailto:desk' || n || '@example.com' end),
        '{}', @design, case when n % 100 = 2 then 0 else 1 end, n % 13, n % 7, 0,
        strftime('%Y-%m-%dT%H:%M:%fZ', (@start + n) / 1000.0, 'unixepoch'), strftime('%Y-%m-%dT%H:%M:%fZ', (@start + n) / 1000.0, 'unixepoch')
      from r`;
    sqlite.prepare(row).run({ count, tag, account: accountId, design, start });
    await countLive(db, accountId, count);
    return;
  }
  await sql`
    insert into qr_items (id, account_id, code, title, content_type, payload, search_title, search_payload, fields_json, design_json,
      active, scan_count, unique_scan_count, bot_scan_count, created_at, updated_at)
    select lpad(to_hex(ascii(${tag})), 8, '0') || '-0000-4000-8000-' || lpad(to_hex(n), 12, '0'), ${accountId}, ${tag} || lpad(to_hex(n), 6, '0'),
      title, kind, payload, title, lower(payload), '{}', ${design}, n % 100 <> 2, n % 13, n % 7, 0, ts, ts
    from (
      select n, title, kind, ts,
        case kind when 'url' then 'https://example.com/t/' || n when 'text' then 'seat ' || n when 'wifi' then 'WIFI:T:WPA;S:hall' || n || ';P:x;;'
          else 'mailto:desk' || n || '@example.com' end as payload
      from (
        select n, 'ticket ' || n || ' ' || (array[${sql.raw(words)}])[n % 10 + 1] as title,
          case when n % 20 = 0 then 'text' when n % 20 = 1 then 'wifi' when n % 50 = 2 then 'email' else 'url' end as kind,
          to_timestamp((${start}::bigint + n) / 1000.0) as ts
        from generate_series(1, ${count}::int) n
      ) g
    ) r`.execute(db.kysely);
  await sql`analyze qr_items`.execute(db.kysely);
  await countLive(db, accountId, count);
}

/** The account's count of live codes, which the repository keeps when codes are made through it. */
async function countLive(db: Db, accountId: string, count: number): Promise<void> {
  await sql`update accounts set live_codes = live_codes + ${count} where id = ${accountId}`.execute(db.kysely);
}

/**
 * The worst case for the list's sparklines: each of the account's `codes` newest codes has
 * scans in every quarter hour of the last `days` days (96 roll-up rows a day per code).
 */
export async function seedBusyBuckets(db: Db, accountId: string, codes: number, days: number): Promise<void> {
  const last = Math.floor(Date.now() / 900_000);
  const first = last - days * 96 + 1;
  const newest = sql`select id from qr_items where account_id = ${accountId} and deleted_at is null order by created_at desc, id desc limit ${codes}`;
  const buckets =
    db.codec.dialect === 'sqlite'
      ? sql`with recursive b(bucket) as (select ${sql.lit(first)} union all select bucket + 1 from b where bucket < ${sql.lit(last)}) select bucket from b`
      : sql`select generate_series(${sql.lit(first)}::bigint, ${sql.lit(last)}::bigint) as bucket`;
  await sql`
    insert into scan_buckets (item_id, bucket, scans, unique_scans, bot_scans)
    select q.id, b.bucket, 2, 1, 0 from (${newest}) q cross join (${buckets}) b`.execute(db.kysely);
}
