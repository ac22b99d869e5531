// A fresh database per test, cleaned up by the test itself (onTestFinished): the set-up that
// database tests shared as copies of an afterEach. Apart from databases.ts, which benches import
// too: this module needs Vitest's runner.
import { onTestFinished } from 'vitest';
import { type DatabaseConfig, parseDatabaseUrl } from '../../src/config.ts';
import { type Db, openDatabase } from '../../src/db/database.ts';
import { freshDatabaseUrl } from './databases.ts';

export interface FreshDatabase {
  url: string;
  config: DatabaseConfig;
  /** Opens (and migrates) another connection to it, as another process would; closed when the test finishes. */
  open(): Promise<Db>;
}

/**
 * A fresh, empty database for the running test: every connection opened through it is closed,
 * then the database removed, when the test finishes (so a test file needs no afterEach of its own).
 */
export async function freshDatabase(): Promise<FreshDatabase> {
  const { url, dispose } = await freshDatabaseUrl();
  const opened: Db[] = [];
  onTestFinished(async () => {
    for (const db of opened.splice(0).reverse()) await db.close();
    await dispose();
  });
  return {
    url,
    config: parseDatabaseUrl(url),
    async open() {
      const db = await openDatabase(parseDatabaseUrl(url));
      // A test may close it itself: closing twice is a no-op here, as the clean-up closes all.
      const close = db.close.bind(db);
      let closed: Promise<void> | null = null;
      db.close = () => (closed ??= close());
      opened.push(db);
      return db;
    },
  };
}

/** A fresh database opened for the running test, closed and removed when it finishes. */
export async function openFreshDatabase(): Promise<Db> {
  return (await freshDatabase()).open();
}
