// The aggregator's lag under load, sampled from the database beside a redirect round: the age of
// the oldest logged scan not yet in the roll-ups (0 when caught up), every 100 ms; and after the
// round, how long the roll-ups take to catch up with everything logged.
import { sql } from 'kysely';
import type { DatabaseConfig } from '../src/config.ts';
import { type Db, openDatabase } from '../src/db/database.ts';

export interface LagSampler {
  /** Stops sampling, waits for the roll-ups to reach the log's end, and answers the figures. */
  stop(): Promise<{ p99Seconds: number; maxSeconds: number; catchUpSeconds: number }>;
}

async function oldestPendingAge(db: Db, now: number): Promise<number> {
  const row = await sql<{ scanned_at: string | Date }>`select s.scanned_at from scans s
    where s.id > (select position from log_cursors where name = 'rollups') order by s.id limit 1`.execute(db.kysely);
  const at = row.rows[0]?.scanned_at;
  return at === undefined ? 0 : Math.max(0, (now - new Date(at).getTime()) / 1000);
}

export async function sampleLag(database: DatabaseConfig): Promise<LagSampler> {
  const db = await openDatabase(database);
  const ages: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      ages.push(await oldestPendingAge(db, Date.now()));
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const started = Date.now();
      // Caught up: nothing logged past the cursor (bounded: a stalled aggregator must not hang the bench).
      while ((await oldestPendingAge(db, Date.now())) > 0 && Date.now() - started < 60_000) await new Promise((r) => setTimeout(r, 50));
      const catchUpSeconds = (Date.now() - started) / 1000;
      await db.close();
      const sorted = [...ages].sort((a, b) => a - b);
      return {
        p99Seconds: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0,
        maxSeconds: sorted[sorted.length - 1] ?? 0,
        catchUpSeconds,
      };
    },
  };
}
