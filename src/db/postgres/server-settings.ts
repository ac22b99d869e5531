// What the PostgreSQL server must do for us that it can be configured not to. The roll-ups are
// updated in place by every slice of scans (a code's counters, its running totals, its row in
// item_scan_totals, whose indexed count makes each update a new row version), so without
// autovacuum they grow with dead rows until someone vacuums them: on the bench machine, whose
// server has it off, item_scan_totals held 3 dead rows for each live one after 4M scans.
import type pg from 'pg';

export interface ServerSettings {
  autovacuum: string;
  trackCounts: string;
}

/** The warning when a setting leaves the roll-ups to bloat; null when all is well. */
export function settingsWarning(s: ServerSettings): string | null {
  const off = [s.autovacuum !== 'on' && 'autovacuum', s.trackCounts !== 'on' && 'track_counts'].filter(Boolean);
  if (off.length === 0) return null;
  return (
    `PostgreSQL's ${off.join(' and ')} ${off.length > 1 ? 'are' : 'is'} off: the statistics' tables are updated by every batch of scans ` +
    'and keep their dead rows until vacuumed; turn autovacuum on, or run VACUUM (ANALYZE) on the database regularly'
  );
}

export async function readServerSettings(pool: pg.Pool): Promise<ServerSettings> {
  const r = await pool.query<{ autovacuum: string; track_counts: string }>(
    `select current_setting('autovacuum') as autovacuum, current_setting('track_counts') as track_counts`,
  );
  const row = r.rows[0];
  return { autovacuum: row?.autovacuum ?? 'on', trackCounts: row?.track_counts ?? 'on' };
}
