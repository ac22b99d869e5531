// The daily salt is discarded after its day even when no scan comes to trigger it
// (product decisions §5): a timer purges it, on SQLite and PostgreSQL.
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { Db } from '../../src/db/database.ts';
import { SaltsRepository, startSaltPurge } from '../../src/db/scans/salts-repository.ts';
import { openFreshDatabase } from '../support/fresh-database.ts';

afterEach(() => {
  vi.useRealTimers();
});

const openFresh = openFreshDatabase;

const saltDays = async (db: Db) => (await db.kysely.selectFrom('salts').select('day').orderBy('day').execute()).map((r) => r.day);

describe('salt purge', () => {
  it('deletes yesterday’s salt on an idle server once the timer fires after midnight UTC', async () => {
    const db = await openFresh();
    const salts = new SaltsRepository(db);
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(new Date('2026-11-20T22:00:00Z'));
    const first = await salts.current();
    const errors: unknown[] = [];
    const stop = startSaltPurge(salts, (err) => errors.push(err), 10 * 60_000);
    onTestFinished(stop);

    // Advancing the timers moves the fake clock too: the purge runs at 23:50.
    vi.setSystemTime(new Date('2026-11-20T23:40:00Z'));
    vi.advanceTimersByTime(10 * 60_000);
    await stop();
    expect(await saltDays(db)).toEqual(['2026-11-20']);

    const stop2 = startSaltPurge(salts, (err) => errors.push(err), 10 * 60_000);
    onTestFinished(stop2);
    vi.setSystemTime(new Date('2026-11-20T23:58:00Z'));
    vi.advanceTimersByTime(10 * 60_000); // 00:08 the next day
    await stop2();
    expect(await saltDays(db)).toEqual([]);
    expect(salts.peek()).toBeNull();
    expect(errors).toEqual([]);
    // The new day gets a new salt: nothing links its visitor hashes to yesterday's.
    expect(await salts.current()).not.toBe(first);
  });

  it('purges at start, so a salt left by a stopped server does not outlive its day', async () => {
    const db = await openFresh();
    await db.kysely.insertInto('salts').values({ day: '2020-01-01', salt: 'old' }).execute();
    const stop = startSaltPurge(new SaltsRepository(db), () => {});
    await stop();
    expect(await saltDays(db)).toEqual([]);
  });
});
