// A code's public heading, apart from its title (issue #32): the title names the code in the
// account's list and file names; the heading, when set, is what its landing page (Wi-Fi,
// contact, text) shows visitors. Null: a neutral heading by kind, never the title.
// And who an invite is for: an optional email, so an owner can tell open invites apart.
import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../codec.ts';

type AnyDb = Kysely<unknown>;

export function publicHeading(_dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable('qr_items').addColumn('heading', 'text').execute();
      await db.schema.alterTable('one_time_links').addColumn('email', 'text').execute();
    },
  };
}
