// The scan log's consumers and where each stands: the roll-ups (rollup-aggregator.ts, which also
// decides how far the log is settled) and those that read only what the roll-ups have applied
// (webhooks), each moving its own cursor in the same transaction as what it made of the scans.
import type { Db } from '../database.ts';

/** A consumer of the log: the roll-ups, the webhooks. */
export type LogConsumer = 'rollups' | 'webhooks';

/** Where a consumer stands: the last scan id it applied. */
export async function cursorOf(db: Db, name: LogConsumer): Promise<number> {
  const row = await db.kysely.selectFrom('log_cursors').select('position').where('name', '=', name).executeTakeFirst();
  return Number(row?.position ?? 0);
}
