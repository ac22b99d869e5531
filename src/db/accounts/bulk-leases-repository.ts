// Leases of an account's running import or export (bulk_leases): taken when free or expired,
// renewed by their holder while the job runs, ended by it. One statement each, on both databases.
import type { Db } from '../database.ts';

export class BulkLeasesRepository {
  constructor(private readonly db: Db) {}

  /** Takes the lease when nobody holds it, or its holder let it expire; else answers what holds it. */
  async take(
    accountId: string,
    kind: string,
    holder: string,
    what: string,
    ttlMs: number,
  ): Promise<{ taken: true } | { taken: false; what: string }> {
    const now = new Date();
    const { time } = this.db.codec;
    const expires = time(new Date(now.getTime() + ttlMs).toISOString());
    const took = await this.db.kysely
      .insertInto('bulk_leases')
      .values({ account_id: accountId, kind, holder, what, expires_at: expires })
      .onConflict((oc) =>
        oc
          .columns(['account_id', 'kind'])
          .doUpdateSet({ holder, what, expires_at: expires })
          .where('bulk_leases.expires_at', '<=', time(now.toISOString())),
      )
      .returning('holder')
      .executeTakeFirst();
    if (took?.holder === holder) return { taken: true };
    const current = await this.db.kysely
      .selectFrom('bulk_leases')
      .select('what')
      .where('account_id', '=', accountId)
      .where('kind', '=', kind)
      .executeTakeFirst();
    return { taken: false, what: current?.what ?? `another ${kind}` };
  }

  /** Moves the lease's end `ttlMs` from now; false when `holder` holds it no longer. */
  async renew(accountId: string, kind: string, holder: string, ttlMs: number): Promise<boolean> {
    const res = await this.db.kysely
      .updateTable('bulk_leases')
      .set({ expires_at: this.db.codec.time(new Date(Date.now() + ttlMs).toISOString()) })
      .where('account_id', '=', accountId)
      .where('kind', '=', kind)
      .where('holder', '=', holder)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  async end(accountId: string, kind: string, holder: string): Promise<void> {
    await this.db.kysely
      .deleteFrom('bulk_leases')
      .where('account_id', '=', accountId)
      .where('kind', '=', kind)
      .where('holder', '=', holder)
      .execute();
  }
}
