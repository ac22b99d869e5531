// Which build of better-sqlite3 this Node loads (docs/decisions/sqlite-driver.md).
// better-sqlite3 13 is a Node-API addon: one binary for every Node that offers
// Node-API 10 (22.14+, 24), and free of the node::ObjectWrap destructor that aborts
// Node 24.19+ when a statement is collected outside a JavaScript context. It cannot
// load on Node 20 (Node-API 9 only), which keeps the 12.x line, installed under the
// alias better-sqlite3-node20 and compiled for that Node on install.
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);

/** The package this runtime loads: the Node-API build wherever Node-API 10 exists. */
export const sqliteDriverName: string = Number(process.versions.napi) >= 10 ? 'better-sqlite3' : 'better-sqlite3-node20';

function load(): { SQLite: typeof BetterSqlite3; path: string } {
  try {
    return { SQLite: require(sqliteDriverName) as typeof BetterSqlite3, path: require.resolve(sqliteDriverName) };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`cannot load ${sqliteDriverName} on Node ${process.version} (${reason}); run "npm ci" or "npm rebuild" with this Node`);
  }
}

const driver = load();

/** The better-sqlite3 constructor for this runtime. */
export const SQLite = driver.SQLite;
/** Its module path, for worker threads that open their own connection. */
export const sqliteDriverPath = driver.path;
