// Webhooks (product-decisions §12, docs/webhooks.md). Endpoints of an account; the outbox, one
// message per endpoint and event, written in the transaction of the change it tells of (and, for
// scans, in the transaction that moves the 'webhooks' cursor of the scan log); the delivery log is
// the messages' last attempt, purged after 30 days; notices remember that an item's one-time event
// (expired, capped) was told. The cursor starts at the last logged scan: endpoints hear of scans
// from now on, not of the whole history.
import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../codec.ts';

type AnyDb = Kysely<unknown>;

export function webhooks(dialect: Dialect): Migration {
  const pg = dialect === 'postgres';
  const time = pg ? sql`timestamptz` : sql`text`;
  const bool = pg ? sql`boolean` : sql`integer`;
  const int = pg ? sql`bigint` : sql`integer`;
  const seq = pg ? sql`bigserial` : sql`integer`;
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('webhook_endpoints')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        // JSON arrays: the event types, the tags and the item ids of the filter (empty: any).
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('filter_tags', 'text', (c) => c.notNull())
        .addColumn('filter_item_ids', 'text', (c) => c.notNull())
        .addColumn('include_bots', bool, (c) => c.notNull())
        // Kept as issued (whsec_…): signing needs it. Never answered again after create or rotate.
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('previous_secret', 'text')
        .addColumn('previous_secret_until', time)
        .addColumn('disabled_at', time)
        .addColumn('disabled_reason', 'text')
        .addColumn('consecutive_failures', int, (c) => c.notNull().defaultTo(0))
        .addColumn('failing_since', time)
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhook_endpoints_account').on('webhook_endpoints').column('account_id').execute();
      await db.schema
        .createTable('webhook_messages')
        .addColumn('seq', seq, (c) => c.primaryKey())
        // webhook-id: the same on every attempt of this message.
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('endpoint_id', 'text', (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        // The body as sent (webhook_payloads), fixed at creation so every attempt signs the same
        // bytes; apart so the attempts' updates do not rewrite it, and shared by the endpoints
        // one event goes to.
        .addColumn('payload_id', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        // pending (waiting or being sent), delivered, failed (no attempt left).
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', int, (c) => c.notNull().defaultTo(0))
        // When it may next be sent; a claim moves it past the attempt's time-out (a lease).
        .addColumn('next_attempt_at', time)
        .addColumn('last_attempt_at', time)
        .addColumn('last_status', int)
        .addColumn('last_error', 'text')
        .addColumn('last_duration_ms', int)
        .addColumn('last_response', 'text')
        .addColumn('delivered_at', time)
        .execute();
      // The worker's probes: an endpoint's due messages, oldest first (pending ones only: the log's
      // delivered rows are most of the table).
      await sql`create index webhook_messages_due on webhook_messages (endpoint_id, next_attempt_at) where status = 'pending'`.execute(db);
      await db.schema.createIndex('webhook_messages_endpoint').on('webhook_messages').columns(['endpoint_id', 'seq']).execute();
      await db.schema.createIndex('webhook_messages_created').on('webhook_messages').column('created_at').execute();
      await db.schema.createIndex('webhook_messages_payload').on('webhook_messages').column('payload_id').execute();
      await db.schema
        .createTable('webhook_payloads')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhook_payloads_created').on('webhook_payloads').column('created_at').execute();
      await db.schema
        .createTable('webhook_notices')
        .addColumn('item_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('webhook_notices_pk', ['item_id', 'kind'])
        .execute();
      await sql`insert into log_cursors (name, position) select 'webhooks', coalesce(max(id), 0) from scans`.execute(db);
    },
  };
}
