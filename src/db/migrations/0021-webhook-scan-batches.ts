// A scan.created message names its scans instead of holding them (issue #28): the feed writes
// which scans of the log a batch is (an account's ids in a range, the endpoint's filter) and the
// body is made from the log when the message is sent, off the thread that answers short links.
// Writing some 400 KB of JSON per 1,000 scans was most of what webhooks cost the redirect on
// SQLite (docs/performance.md). Other events keep their body.
import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../codec.ts';

type AnyDb = Kysely<unknown>;

export function webhookScanBatches(_dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      // JSON of a ScanBatch (src/db/webhooks/scan-batches.ts); null: `body` is the body.
      await db.schema.alterTable('webhook_payloads').addColumn('scans', 'text').execute();
    },
  };
}
