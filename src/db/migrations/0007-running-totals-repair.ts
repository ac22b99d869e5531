// Until this migration the PostgreSQL scan writer started a code's running total for a new UTC
// day from the last total before it plus only the batch's scans after that total's day. The
// total it read came from the statement's snapshot, which lacked the batch's own scans of that
// earlier day, so a batch holding scans of one code on both sides of a UTC midnight, on a day
// the code already had a total, left every later total short by those scans: the account's top
// codes then counted too many scans in the range. The totals are rebuilt from the quarter-hour
// roll-ups, which were always right. SQLite wrote its statements one by one and was not
// affected.
import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../codec.ts';
import { fillRunningTotals } from './0004-account-rollups.ts';

export function runningTotalsRepair(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== 'postgres') return;
      await db.deleteFrom('item_running_totals' as never).execute();
      await fillRunningTotals(db, dialect);
    },
  };
}
