// Kysely over better-sqlite3 with prepared statements kept (statement-cache.ts): the same SQL
// runs on one statement, a statement a stream still iterates is never handed out again, and the
// cache stays within its size.
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { SQLite } from '../../src/db/sqlite/sqlite-driver.ts';
import { withStatementCache } from '../../src/db/sqlite/statement-cache.ts';

function counted(max?: number) {
  const raw = new SQLite(':memory:');
  raw.exec('create table t (n integer primary key)');
  raw.exec('insert into t (n) values (1), (2), (3)');
  let prepared = 0;
  const real = raw.prepare.bind(raw);
  raw.prepare = ((text: string) => {
    prepared++;
    return real(text);
  }) as typeof raw.prepare;
  const cached = withStatementCache(raw, max);
  const db = new Kysely<{ t: { n: number } }>({ dialect: new SqliteDialect({ database: cached }) });
  return { db, cached, prepared: () => prepared };
}

describe('the SQLite statement cache', () => {
  it('prepares a query once, whatever its parameters, and answers each run with its own', async () => {
    const { db, prepared } = counted();
    for (const n of [1, 2, 3, 1]) {
      const rows = await db.selectFrom('t').select('n').where('n', '=', n).execute();
      expect(rows).toEqual([{ n }]);
    }
    await db.insertInto('t').values({ n: 4 }).execute();
    await db.insertInto('t').values({ n: 5 }).execute();
    expect(
      await db
        .selectFrom('t')
        .select((eb) => eb.fn.countAll<number>().as('c'))
        .executeTakeFirst(),
    ).toEqual({ c: 5 });
    expect(prepared()).toBe(3);
    await db.destroy();
  });

  it('never hands out a statement still being iterated, and a stream left midway frees its own', async () => {
    const { db, cached } = counted();
    const text = 'select n from t order by n';
    const kept = cached.prepare(text);
    const iterating = kept.iterate([]);
    iterating.next();
    // better-sqlite3 refuses to run a busy statement: the cache must not offer it.
    const other = cached.prepare(text);
    expect(other).not.toBe(kept);
    expect(other.all([])).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    iterating.return?.();
    expect(cached.prepare(text)).toBe(kept);
    // Kysely's stream over the same statement, left at its first row: the next run is whole.
    for await (const row of db.selectFrom('t').select('n').orderBy('n').stream()) {
      expect(row.n).toBe(1);
      break;
    }
    expect((await db.selectFrom('t').select('n').orderBy('n').execute()).map((r) => r.n)).toEqual([1, 2, 3]);
    await db.destroy();
  });

  it('keeps at most its size, dropping the least recently used', async () => {
    const { db, prepared } = counted(2);
    const q = (k: string) => sql`select ${sql.lit(k)} as k`.execute(db);
    await q('a');
    await q('b');
    await q('a'); // kept
    await q('c'); // b goes
    expect(prepared()).toBe(3);
    await q('a'); // still kept
    expect(prepared()).toBe(3);
    await q('b'); // prepared again
    expect(prepared()).toBe(4);
    await db.destroy();
  });

  it('surfaces a failing statement and keeps working after it', async () => {
    const { db } = counted();
    await expect(db.insertInto('t').values({ n: 1 }).execute()).rejects.toThrow(/UNIQUE/);
    await db.insertInto('t').values({ n: 9 }).execute();
    expect((await db.selectFrom('t').select('n').where('n', '=', 9).execute()).length).toBe(1);
    await db.destroy();
  });
});
