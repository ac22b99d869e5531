// The scan log's settled end: the id up to which every scan has either committed or never will,
// so a consumer reading `position < id <= settled` sees each scan exactly once. On SQLite one
// process writes and ids are given in commit order. On PostgreSQL ids come from a sequence and
// concurrent batches can commit out of order, so the end is read under a brief table lock that
// waits for the batches in flight (writers queue behind it for that long; nothing else does).
import { sql } from 'kysely';
import type { Db } from '../database.ts';

/** A consumer of the log: the roll-ups, the webhooks. */
export type LogConsumer = 'rollups' | 'webhooks';

export async function settledScanId(db: Db): Promise<number> {
  if (db.codec.dialect === 'sqlite') {
    const row = await sql<{ id: number | null }>`select max(id) as id from scans`.execute(db.kysely);
    return Number(row.rows[0]?.id ?? 0);
  }
  return db.kysely.transaction().execute(async (trx) => {
    await sql`set local lock_timeout = '5s'`.execute(trx);
    await sql`lock table scans in share row exclusive mode`.execute(trx);
    const row = await sql<{ last_value: string; is_called: boolean }>`select last_value, is_called from scans_id_seq`.execute(trx);
    const r = row.rows[0];
    if (!r) return 0;
    return r.is_called ? Number(r.last_value) : Number(r.last_value) - 1;
  });
}

/** Where a consumer stands: the last scan id it applied. */
export async function cursorOf(db: Db, name: LogConsumer): Promise<number> {
  const row = await db.kysely.selectFrom('log_cursors').select('position').where('name', '=', name).executeTakeFirst();
  return Number(row?.position ?? 0);
}
