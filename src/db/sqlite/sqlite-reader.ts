// A read-only connection to a SQLite file the server's own connection keeps in WAL mode, for
// the read workers (src/read-pool/): WAL lets it read beside the writer, neither blocking the
// other. Not migrated: the server's connection did that before any reader opens. Apart from
// database.ts so a worker loads neither the PostgreSQL driver nor the migrations.
import { Kysely, SqliteDialect } from 'kysely';
import { codecFor } from '../codec.ts';
import type { Db } from '../database.ts';
import type { Database } from '../schema.ts';
import { SQLite } from './sqlite-driver.ts';
import { withStatementCache } from './statement-cache.ts';

export function openSqliteReader(file: string): Db {
  const sqlite = new SQLite(file, { readonly: true, fileMustExist: true });
  sqlite.pragma('busy_timeout = 5000');
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { kysely, codec: codecFor('sqlite'), sqlite, pool: null, close: () => kysely.destroy() };
}
