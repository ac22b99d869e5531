// Schema migrations, written once for both dialects: the dialect is passed in, and
// only column types branch on it. Migrations never import model code.
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { Dialect } from './codec.ts';
import { bigAccounts } from './migrations/0003-big-accounts.ts';
import { accountRollups } from './migrations/0004-account-rollups.ts';
import { designs } from './migrations/0005-designs.ts';
import { itemScanTotals } from './migrations/0006-item-scan-totals.ts';
import { runningTotalsRepair } from './migrations/0007-running-totals-repair.ts';
import { quarterDims } from './migrations/0008-quarter-dims.ts';
import { trustedDevices } from './migrations/0009-trusted-devices.ts';
import { accountSearch } from './migrations/0010-account-search.ts';
import { liveCodeCounts } from './migrations/0011-live-code-counts.ts';
import { dynamicCodes } from './migrations/0012-dynamic-codes.ts';
import { domains } from './migrations/0013-domains.ts';
import { keyLifecycle } from './migrations/0014-key-lifecycle.ts';
import { scanPipeline } from './migrations/0015-scan-pipeline.ts';
import { webhooks } from './migrations/0016-webhooks.ts';
import { publicHeading } from './migrations/0017-public-heading.ts';
import { bulkLeases } from './migrations/0018-bulk-leases.ts';
import { searchMerging } from './migrations/0019-search-merging.ts';
import { scanPartitions } from './migrations/0020-scan-partitions.ts';
import { webhookScanBatches } from './migrations/0021-webhook-scan-batches.ts';

type AnyDb = Kysely<unknown>;

function types(dialect: Dialect) {
  const pg = dialect === 'postgres';
  return {
    time: pg ? sql`timestamptz` : sql`text`,
    bool: pg ? sql`boolean` : sql`integer`,
    bigId: pg ? sql`bigserial` : sql`integer`,
    int: pg ? sql`bigint` : sql`integer`,
  };
}

function initial(dialect: Dialect): Migration {
  const t = types(dialect);
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', t.time, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('last_used_at', t.time)
        .addColumn('revoked_at', t.time)
        .execute();
      await db.schema.createIndex('api_keys_account').on('api_keys').column('account_id').execute();
      await db.schema
        .createTable('qr_items')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('code', 'text', (c) => c.notNull().unique())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('fields_json', 'text', (c) => c.notNull())
        .addColumn('design_json', 'text', (c) => c.notNull())
        .addColumn('active', t.bool, (c) => c.notNull())
        .addColumn('scan_count', t.int, (c) => c.notNull().defaultTo(0))
        .addColumn('unique_scan_count', t.int, (c) => c.notNull().defaultTo(0))
        .addColumn('bot_scan_count', t.int, (c) => c.notNull().defaultTo(0))
        .addColumn('first_scan_at', t.time)
        .addColumn('last_scan_at', t.time)
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('updated_at', t.time, (c) => c.notNull())
        .addColumn('deleted_at', t.time)
        .execute();
      // Carries the list: an account's items, newest first, keyset-paged on (created_at, id).
      await db.schema.createIndex('qr_items_account_created').on('qr_items').columns(['account_id', 'created_at', 'id']).execute();
      await db.schema
        .createTable('scans')
        .addColumn('id', t.bigId, (c) => c.primaryKey())
        .addColumn('item_id', 'text', (c) => c.notNull())
        .addColumn('scanned_at', t.time, (c) => c.notNull())
        .addColumn('is_bot', t.bool, (c) => c.notNull())
        .addColumn('device', 'text', (c) => c.notNull())
        .addColumn('os', 'text')
        .addColumn('browser', 'text')
        .addColumn('country', 'text')
        .addColumn('referrer', 'text')
        .addColumn('visitor_hash', 'text', (c) => c.notNull())
        .execute();
      // Carries `recent`: newest human scans of one item.
      await db.schema.createIndex('scans_item_recent').on('scans').columns(['item_id', 'is_bot', 'id']).execute();
      await db.schema
        .createTable('scan_buckets')
        .addColumn('item_id', 'text', (c) => c.notNull())
        .addColumn('bucket', t.int, (c) => c.notNull())
        .addColumn('scans', t.int, (c) => c.notNull())
        .addColumn('unique_scans', t.int, (c) => c.notNull())
        .addColumn('bot_scans', t.int, (c) => c.notNull())
        .addPrimaryKeyConstraint('scan_buckets_pk', ['item_id', 'bucket'])
        .execute();
      await db.schema
        .createTable('scan_dims_daily')
        .addColumn('item_id', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('dim', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('scans', t.int, (c) => c.notNull())
        .addPrimaryKeyConstraint('scan_dims_daily_pk', ['item_id', 'day', 'dim', 'value'])
        .execute();
      await db.schema
        .createTable('scan_visitors')
        .addColumn('item_id', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('visitor_hash', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('scan_visitors_pk', ['item_id', 'day', 'visitor_hash'])
        .execute();
      await db.schema.createIndex('scan_visitors_day').on('scan_visitors').column('day').execute();
      await db.schema
        .createTable('salts')
        .addColumn('day', 'text', (c) => c.primaryKey())
        .addColumn('salt', 'text', (c) => c.notNull())
        .execute();
    },
  };
}

/** Users, their memberships in accounts, server-side sessions and one-time links (setup, invite, reset). */
function webAccounts(dialect: Dialect): Migration {
  const t = types(dialect);
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', t.time, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('memberships')
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addPrimaryKeyConstraint('memberships_pk', ['account_id', 'user_id'])
        .execute();
      await db.schema.createIndex('memberships_user').on('memberships').column('user_id').execute();
      await db.schema
        .createTable('sessions')
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('last_seen_at', t.time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
      await db.schema
        .createTable('one_time_links')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.references('accounts.id'))
        .addColumn('user_id', 'text', (c) => c.references('users.id'))
        .addColumn('role', 'text')
        .addColumn('created_by', 'text', (c) => c.references('users.id'))
        .addColumn('created_at', t.time, (c) => c.notNull())
        .addColumn('expires_at', t.time)
        .addColumn('used_at', t.time)
        .execute();
      await db.schema.createIndex('one_time_links_account').on('one_time_links').columns(['account_id', 'kind']).execute();
      await db.schema
        .alterTable('api_keys')
        .addColumn('created_by', 'text', (c) => c.references('users.id'))
        .execute();
    },
  };
}

export class InCodeMigrations implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return {
      '0001_initial': initial(this.dialect),
      '0002_web_accounts': webAccounts(this.dialect),
      '0003_big_accounts': bigAccounts(this.dialect),
      '0004_account_rollups': accountRollups(this.dialect),
      '0005_designs': designs(this.dialect),
      '0006_item_scan_totals': itemScanTotals(this.dialect),
      '0007_running_totals_repair': runningTotalsRepair(this.dialect),
      '0008_quarter_dims': quarterDims(this.dialect),
      '0009_trusted_devices': trustedDevices(this.dialect),
      '0010_account_search': accountSearch(this.dialect),
      '0011_live_code_counts': liveCodeCounts(this.dialect),
      '0012_dynamic_codes': dynamicCodes(this.dialect),
      '0013_domains': domains(this.dialect),
      '0014_key_lifecycle': keyLifecycle(this.dialect),
      '0015_scan_pipeline': scanPipeline(this.dialect),
      '0016_webhooks': webhooks(this.dialect),
      '0017_public_heading': publicHeading(this.dialect),
      '0018_bulk_leases': bulkLeases(this.dialect),
      '0019_search_merging': searchMerging(this.dialect),
      '0020_scan_partitions': scanPartitions(this.dialect),
      '0021_webhook_scan_batches': webhookScanBatches(this.dialect),
    };
  }
}

/** Brings the schema up to date; throws (never exits 0) when a migration fails. */
export async function migrateToLatest(db: AnyDb, dialect: Dialect): Promise<void> {
  await runMigrations(db, dialect, new InCodeMigrations(dialect));
}

/**
 * Runs `provider`'s pending migrations, all in one transaction on both databases (see
 * database.ts for SQLite): a failed or interrupted upgrade changes nothing.
 */
export async function runMigrations(db: AnyDb, dialect: Dialect, provider: MigrationProvider): Promise<void> {
  // On PostgreSQL the bookkeeping tables live in the connection's own schema: Kysely
  // would otherwise find another schema's tables of the same name and skip creating them.
  const schema = dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s : undefined;
  const migrator = new Migrator({ db, provider, migrationTableSchema: schema });
  // An upgrade may take minutes (0008 backfills every recent scan) before the server listens:
  // say so, rather than leave an operator looking at a silent process. A new database is quick.
  const known = await migrator.getMigrations();
  const pending = known.filter((m) => m.executedAt === undefined).map((m) => m.name);
  if (pending.length > 0 && pending.length < known.length) {
    process.stderr.write(`qrtrack: upgrading the database: ${pending.join(', ')} (one transaction: stopping midway leaves it as it was)\n`);
  }
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? failed?.migrationName);
    throw new Error(`database migration failed: ${reason}`);
  }
}
