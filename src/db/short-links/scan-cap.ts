// The scan cap, atomic on the redirect path: the one write there besides the scan itself, and
// only for codes with a cap. A scan is admitted by a conditional increment that cannot pass
// max_scans however many scans arrive at once, in one process or many (PostgreSQL's row lock
// re-checks the condition). With the `unique` basis a visitor admitted today passes again
// without using another place. SQLite runs these synchronously: nothing interleaves.
import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import type { ScanCapBasis } from '../../domain/dynamic/dynamic-settings.ts';
import type { Db } from '../database.ts';

export interface Admission {
  itemId: string;
  basis: ScanCapBasis;
  /** The scan's UTC day and visitor hash: who a `unique` cap admitted. */
  day: string;
  visitorHash: string;
}

export interface ScanCap {
  /** Whether the cap is reached, without taking a place (bots, HEAD, the password form). */
  reached(itemId: string): Promise<boolean>;
  /** Takes a place for a counted scan; false when none is left. */
  admit(a: Admission): Promise<boolean>;
}

export function scanCapFor(db: Db): ScanCap {
  if (db.sqlite) return sqliteCap(db.sqlite);
  if (db.pool) return postgresCap(db.pool);
  throw new Error('scan cap: no database');
}

function sqliteCap(sqlite: BetterSqlite3.Database): ScanCap {
  const reached = sqlite.prepare<[string], { full: number }>(
    'select max_scans is not null and cap_count >= max_scans as full from qr_items where id = ?',
  );
  const take = sqlite.prepare(
    'update qr_items set cap_count = cap_count + 1 where id = ? and (max_scans is null or cap_count < max_scans)',
  );
  const seen = sqlite.prepare('select 1 from cap_admissions where item_id = ? and day = ? and visitor_hash = ?');
  const remember = sqlite.prepare('insert or ignore into cap_admissions (item_id, day, visitor_hash) values (?, ?, ?)');
  const admitUnique = sqlite.transaction((a: Admission): boolean => {
    if (seen.get(a.itemId, a.day, a.visitorHash) !== undefined) return true;
    if (take.run(a.itemId).changes === 0) return false;
    remember.run(a.itemId, a.day, a.visitorHash);
    return true;
  });
  return {
    reached: async (itemId) => reached.get(itemId)?.full === 1,
    admit: async (a) => (a.basis === 'unique' ? admitUnique(a) : take.run(a.itemId).changes === 1),
  };
}

function postgresCap(pool: pg.Pool): ScanCap {
  return {
    async reached(itemId) {
      const { rows } = await pool.query<{ full: boolean }>({
        name: 'qrtrack_cap_reached',
        text: 'select max_scans is not null and cap_count >= max_scans as full from qr_items where id = $1',
        values: [itemId],
      });
      return rows[0]?.full === true;
    },
    async admit(a) {
      if (a.basis === 'human') {
        const { rowCount } = await pool.query({
          name: 'qrtrack_cap_take',
          text: 'update qr_items set cap_count = cap_count + 1 where id = $1 and (max_scans is null or cap_count < max_scans)',
          values: [a.itemId],
        });
        return rowCount === 1;
      }
      // Two first scans of one visitor at the same instant may both take a place: never more
      // places than max_scans, at worst one person counted twice.
      const { rows } = await pool.query<{ ok: boolean }>({
        name: 'qrtrack_cap_admit_unique',
        text: `with seen as (select 1 from cap_admissions where item_id = $1 and day = $2 and visitor_hash = $3),
          took as (
            update qr_items set cap_count = cap_count + 1
            where id = $1 and not exists (select 1 from seen) and (max_scans is null or cap_count < max_scans)
            returning id),
          kept as (insert into cap_admissions (item_id, day, visitor_hash) select $1, $2, $3 from took on conflict do nothing)
          select exists (select 1 from seen) or exists (select 1 from took) as ok`,
        values: [a.itemId, a.day, a.visitorHash],
      });
      return rows[0]?.ok === true;
    },
  };
}
