// PostgreSQL's scan log becomes a table partitioned by UTC month (`scans_2026_11`, …, and
// `scans_default` for a scan of a month without its own), so a month every account's retention
// has passed goes as one DROP instead of millions of row deletes (db/scans/scan-partitions.ts keeps
// the months ahead and drops the old ones). Ids and their sequence stay: `scans_id_seq` moves
// to the new table, so the next scan's id follows the last one and every consumer's cursor
// (log_cursors) still points at the same scan. A partitioned table's primary key must hold the
// partition key: (id, scanned_at), which also carries the consumers' reads of an id range. The
// rows are copied once (one transaction, like every upgrade). SQLite keeps its one table.
import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../codec.ts';

type AnyDb = Kysely<unknown>;

/** Months made ahead of the current one, so no scan of normal operation lands in DEFAULT. */
const MONTHS_AHEAD = 2;

export function scanPartitions(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      if (dialect !== 'postgres') return;
      await sql`alter table scans rename to scans_unpartitioned`.execute(db);
      await sql`alter index scans_pkey rename to scans_unpartitioned_pkey`.execute(db);
      await sql`alter index scans_item_time rename to scans_unpartitioned_item_time`.execute(db);
      // LIKE keeps the columns in order, their types and defaults (the id's nextval of scans_id_seq).
      await sql`create table scans (like scans_unpartitioned including defaults) partition by range (scanned_at)`.execute(db);
      const used = await sql<{ m: string }>`
        select distinct to_char(scanned_at at time zone 'UTC', 'YYYY-MM') as m from scans_unpartitioned`.execute(db);
      const months = new Set(used.rows.map((r) => monthIndex(r.m)));
      const now = new Date();
      const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
      for (let m = current; m <= current + MONTHS_AHEAD; m++) months.add(m);
      for (const m of [...months].sort((a, b) => a - b)) {
        await sql
          .raw(`create table ${partitionName(m)} partition of scans for values from ('${monthStart(m)}') to ('${monthStart(m + 1)}')`)
          .execute(db);
      }
      await sql`create table scans_default partition of scans default`.execute(db);
      await sql`insert into scans select * from scans_unpartitioned`.execute(db);
      // Indexes after the copy: built once per partition rather than grown row by row.
      await sql`alter table scans add constraint scans_pkey primary key (id, scanned_at)`.execute(db);
      await sql`create index scans_item_time on scans (item_id, is_bot, scanned_at)`.execute(db);
      await sql`alter sequence scans_id_seq owned by scans.id`.execute(db);
      await sql`drop table scans_unpartitioned`.execute(db);
      await sql`analyze scans`.execute(db);
    },
  };
}

/** 'YYYY-MM' → months since year 0. */
function monthIndex(yyyyMm: string): number {
  const [y, m] = yyyyMm.split('-').map(Number);
  return (y as number) * 12 + (m as number) - 1;
}

function monthStart(index: number): string {
  const y = Math.floor(index / 12);
  const m = (index % 12) + 1;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-01 00:00:00+00`;
}

function partitionName(index: number): string {
  return `scans_${String(Math.floor(index / 12)).padStart(4, '0')}_${String((index % 12) + 1).padStart(2, '0')}`;
}
