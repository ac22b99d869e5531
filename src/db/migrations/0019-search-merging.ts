// The SQLite search index's segments are merged by the server between turns of the event loop
// (db/sqlite/search-index-merger.ts), not by FTS5 inside each commit. With FTS5's default
// automerge, a commit that flushes a few hundred new codes also did merge work proportional to
// them: 8 ms at the median and 39–57 ms at the tail for 500-row transactions over a 200k-code
// index, on the thread that answers the short links (docs/performance.md, the import row).
// `automerge` is a setting stored in the index itself, so every connection (server, CLI, an
// operator's shell) sees it. `crisismerge` (16 segments on one level) is left as FTS5 has it:
// should no server merge for a while, a commit still merges rather than let queries slow down.
import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../codec.ts';

type AnyDb = Kysely<unknown>;

export function searchMerging(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      if (dialect !== 'sqlite') return;
      await sql`insert into qr_items_search (qr_items_search, rank) values ('automerge', 0)`.execute(db);
    },
  };
}
