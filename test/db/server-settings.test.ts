// A PostgreSQL server that does not vacuum leaves the roll-ups to bloat: the process says so at start.
import { describe, expect, it } from 'vitest';
import { readServerSettings, settingsWarning } from '../../src/db/postgres/server-settings.ts';
import { ON_POSTGRES } from '../support/databases.ts';
import { openFreshDatabase } from '../support/fresh-database.ts';

describe('PostgreSQL server settings', () => {
  it('warns when autovacuum or track_counts is off, naming them, and not when both are on', () => {
    expect(settingsWarning({ autovacuum: 'on', trackCounts: 'on' })).toBeNull();
    const one = settingsWarning({ autovacuum: 'off', trackCounts: 'on' });
    expect(one).toMatch(/^PostgreSQL's autovacuum is off: .*VACUUM \(ANALYZE\)/);
    expect(settingsWarning({ autovacuum: 'on', trackCounts: 'off' })).toMatch(/^PostgreSQL's track_counts is off/);
    expect(settingsWarning({ autovacuum: 'off', trackCounts: 'off' })).toMatch(/^PostgreSQL's autovacuum and track_counts are off/);
  });

  it.runIf(ON_POSTGRES)('reads them from the server', async () => {
    const db = await openFreshDatabase();
    const settings = await readServerSettings(db.pool!);
    const shown = await db.pool!.query<{ a: string; t: string }>('show autovacuum');
    expect(settings.autovacuum).toBe(Object.values(shown.rows[0]!)[0]);
    expect(['on', 'off']).toContain(settings.trackCounts);
  });
});
