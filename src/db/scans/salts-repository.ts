// The daily secret salt of visitor hashes. One salt per UTC day, shared by every
// process through the database; older salts are deleted, and with them any way to
// link a visitor hash back to an IP address. Visitor rows of past days go too: the
// unique rule only ever compares within one day.
import { randomBytes } from 'node:crypto';
import { utcDay } from '../../domain/stats/scan-buckets.ts';
import type { Db } from '../database.ts';
import { startPurge } from './periodic-purge.ts';

export class SaltsRepository {
  /** The loaded salt and the UTC day it is valid for, as [start, end) in epoch ms. */
  private cached: { day: string; salt: string; start: number; end: number } | null = null;

  constructor(private readonly db: Db) {}

  /** Today's salt; after the first call of a day this is answered from memory. */
  async current(now = Date.now()): Promise<string> {
    const hit = this.peek(now);
    if (hit !== null) return hit;
    const day = utcDay(now);
    const salt = await this.ensure(day);
    const start = Date.parse(`${day}T00:00:00Z`);
    this.cached = { day, salt, start, end: start + 86_400_000 };
    return salt;
  }

  /** Synchronous fast path for the redirect (two comparisons): null when the day's salt is not loaded yet. */
  peek(now = Date.now()): string | null {
    const c = this.cached;
    return c !== null && now >= c.start && now < c.end ? c.salt : null;
  }

  private async ensure(day: string): Promise<string> {
    const k = this.db.kysely;
    await k
      .insertInto('salts')
      .values({ day, salt: randomBytes(32).toString('hex') })
      .onConflict((oc) => oc.column('day').doNothing())
      .execute();
    const row = await k.selectFrom('salts').select('salt').where('day', '=', day).executeTakeFirstOrThrow();
    await this.deleteBefore(day);
    return row.salt;
  }

  /**
   * Deletes every salt (and visitor and cap admission row) of a day before today's, also the copy in memory.
   * Run on a timer, so an idle server keeps its promise too: a salt lives one day.
   */
  async purgeExpired(now = Date.now()): Promise<void> {
    if (this.cached !== null && now >= this.cached.end) this.cached = null;
    await this.deleteBefore(utcDay(now));
  }

  private async deleteBefore(day: string): Promise<void> {
    await this.db.kysely.deleteFrom('salts').where('day', '<', day).execute();
    // Visitors go a day later than their salt: the aggregator may still be applying the last scans
    // of yesterday after midnight, and needs yesterday's visitors to tell which were unique. Without
    // the salt a hash no longer leads back to an address.
    await this.db.kysely.deleteFrom('scan_visitors').where('day', '<', dayBefore(day)).execute();
    // A unique scan cap's admissions are visitor hashes of a day, like the visitors above.
    await this.db.kysely.deleteFrom('cap_admissions').where('day', '<', day).execute();
  }
}

/** Purges expired salts now and then every `intervalMs` (see startPurge). */
export function startSaltPurge(salts: SaltsRepository, onError: (err: unknown) => void, intervalMs = 10 * 60_000): () => Promise<void> {
  return startPurge(() => salts.purgeExpired(), onError, intervalMs);
}

function dayBefore(day: string): string {
  return utcDay(Date.parse(`${day}T00:00:00Z`) - 86_400_000);
}
