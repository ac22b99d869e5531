// One transaction for work that spans repositories: the callback gets a `Db` whose
// queries all run inside it, so repositories need not know they are in one.
import type { Db } from './database.ts';

export function inTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.kysely.transaction().execute((trx) => work({ ...db, kysely: trx }));
}
