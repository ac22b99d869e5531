// New QR items into PostgreSQL as one statement over unnest() of array parameters: a
// thousand rows as a dozen parameters rather than 20,000, which PostgreSQL parses and plans
// in a fraction of the time. Codes already taken are skipped; the ids stored come back.
//
// A batch's codes mostly share their design (the defaults or one template) and often their
// fields: each distinct JSON text is sent once and rows name it by its place. The designs
// were three quarters of the statement (about 500 bytes a row, 700 with array escaping), and
// its size is what this process pays to build and send and the database to parse.
import { sql } from 'kysely';
import type { Db } from '../database.ts';
import type { QrItemsTable } from '../schema.ts';
import { booleanArray, integerArray, textArray } from '../postgres/pg-array-literal.ts';

/** A new item's columns as the bulk insert takes them (the account id is one for all). */
export type NewItemRow = Pick<
  QrItemsTable,
  | 'id'
  | 'code'
  | 'title'
  | 'heading'
  | 'content_type'
  | 'payload'
  | 'search_title'
  | 'search_payload'
  | 'fields_json'
  | 'design_json'
  | 'max_scans'
  | 'routing_json'
  | 'password_hash'
  | 'domain_id'
> & { active: boolean; created_at: string; activates_at: string | null; expires_at: string | null; cap_basis: string };

export async function insertItemsPostgres(db: Db, accountId: string, rows: readonly NewItemRow[]): Promise<string[]> {
  const col = <K extends keyof NewItemRow>(k: K) => rows.map((r) => r[k]);
  const fields = distinct(col('fields_json'));
  const designs = distinct(col('design_json'));
  const { rows: stored } = await sql<{ id: string }>`
    insert into qr_items (id, account_id, code, title, heading, content_type, payload, search_title, search_payload, fields_json, design_json,
      active, created_at, updated_at, activates_at, expires_at, max_scans, cap_basis, routing_json, password_hash, domain_id)
    select r.id, ${accountId}, r.code, r.title, r.heading, r.content_type, r.payload, r.search_title, r.search_payload, f.json, d.json, r.active,
      r.created_at, r.created_at, r.activates_at, r.expires_at, r.max_scans, r.cap_basis, r.routing_json, r.password_hash, r.domain_id
    from unnest(${textArray(col('id'))}::text[], ${textArray(col('code'))}::text[], ${textArray(col('title'))}::text[], ${textArray(col('heading'))}::text[],
      ${textArray(col('content_type'))}::text[], ${textArray(col('payload'))}::text[], ${textArray(col('search_title'))}::text[],
      ${textArray(col('search_payload'))}::text[], ${integerArray(fields.index)}::int[], ${integerArray(designs.index)}::int[],
      ${booleanArray(col('active'))}::boolean[], ${textArray(col('created_at'))}::timestamptz[],
      ${textArray(col('activates_at'))}::timestamptz[], ${textArray(col('expires_at'))}::timestamptz[],
      ${textArray(rows.map((r) => (r.max_scans === null ? null : String(r.max_scans))))}::bigint[], ${textArray(col('cap_basis'))}::text[],
      ${textArray(col('routing_json'))}::text[], ${textArray(col('password_hash'))}::text[], ${textArray(col('domain_id'))}::text[])
      as r(id, code, title, heading, content_type, payload, search_title, search_payload, fields_at, design_at, active, created_at,
        activates_at, expires_at, max_scans, cap_basis, routing_json, password_hash, domain_id)
    join unnest(${textArray(fields.values)}::text[]) with ordinality as f(json, at) on f.at = r.fields_at
    join unnest(${textArray(designs.values)}::text[]) with ordinality as d(json, at) on d.at = r.design_at
    on conflict (code) do nothing
    returning id`.execute(db.kysely);
  return stored.map((r) => r.id);
}

/** The distinct values in first-seen order, and each value's place among them (from 1, as unnest's ordinality). */
function distinct(values: readonly string[]): { values: string[]; index: number[] } {
  const places = new Map<string, number>();
  const index = values.map((v) => {
    let at = places.get(v);
    if (at === undefined) places.set(v, (at = places.size + 1));
    return at;
  });
  return { values: [...places.keys()], index };
}
