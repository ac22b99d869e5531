// Row types as the database stores them. Timestamps and booleans differ per dialect
// (TEXT/INTEGER in SQLite, timestamptz/boolean in PostgreSQL); `codec.ts` maps them
// in one place, so repositories only ever hand ISO strings and booleans upward.
import type { Generated } from 'kysely';

export type DbTime = string | Date;
export type DbBool = number | boolean;

export interface AccountsTable {
  id: string;
  name: string;
  created_at: DbTime;
  /** Live (not deleted) codes, kept by the items repository with each create and delete. */
  live_codes: Generated<number>;
  /** Days raw scans and per-day breakdowns are kept; null: forever (migration 0015). */
  scan_retention_days: number | null;
  /** The first UTC day whose raw scans are all kept; null: every day's (retention sets it). */
  raw_scans_from: string | null;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  name: string;
  /** The first characters of the key, shown in listings to recognise it. */
  prefix: string;
  /** SHA-256 hex of the whole key; the key itself is never stored. */
  secret_hash: string;
  scopes: string;
  created_at: DbTime;
  last_used_at: DbTime | null;
  revoked_at: DbTime | null;
  /** The user who made the key in the web app; null for keys made with the CLI. */
  created_by: string | null;
  /** The key answers 401 from this instant on; a rotated key's is the end of its grace period. */
  expires_at: DbTime | null;
  /** The key a rotation made to replace this one. */
  replaced_by: string | null;
  /** When it was rotated (the Deprecation header's date during the grace period). */
  replaced_at: DbTime | null;
}

export interface UsersTable {
  id: string;
  /** Lower-cased. */
  email: string;
  /** argon2id PHC string. */
  password_hash: string;
  created_at: DbTime;
}

export interface MembershipsTable {
  account_id: string;
  user_id: string;
  role: string;
  created_at: DbTime;
}

export interface SessionsTable {
  /** SHA-256 hex of the random id in the cookie; the id itself is never stored. */
  id_hash: string;
  user_id: string;
  /** The account the session currently works in. */
  account_id: string;
  created_at: DbTime;
  last_seen_at: DbTime;
}

/** Browsers a user signed in from (see migrations/0009-trusted-devices.ts). */
export interface TrustedDevicesTable {
  /** SHA-256 hex of the random token in the device cookie. */
  token_hash: string;
  user_id: string;
  created_at: DbTime;
  last_used_at: DbTime;
}

/** Setup, invite and password-reset links: one use each, stored as a hash of their token. */
export interface OneTimeLinksTable {
  id: string;
  token_hash: string;
  kind: string;
  account_id: string | null;
  user_id: string | null;
  role: string | null;
  created_by: string | null;
  created_at: DbTime;
  expires_at: DbTime | null;
  used_at: DbTime | null;
  /** Who an invite is for, as the owner typed it (a label: the link works for whoever opens it). */
  email: string | null;
}

export interface QrItemsTable {
  id: string;
  account_id: string;
  code: string;
  title: string;
  /** What its landing page shows visitors; null: a neutral heading by kind (the title stays private). */
  heading: string | null;
  content_type: string;
  payload: string;
  /** Title and payload folded for `q` (domain/qr-items/search-text.ts); the trigram indexes cover these. */
  search_title: string;
  search_payload: string;
  /** The typed content fields (url, wifiSsid, …) as JSON, so a PATCH of one field can rebuild the payload. */
  fields_json: string;
  design_json: string;
  active: DbBool;
  scan_count: number;
  unique_scan_count: number;
  bot_scan_count: number;
  first_scan_at: DbTime | null;
  last_scan_at: DbTime | null;
  created_at: DbTime;
  updated_at: DbTime;
  deleted_at: DbTime | null;
  activates_at: DbTime | null;
  expires_at: DbTime | null;
  max_scans: number | null;
  /** 'human' or 'unique': what the scan cap counts (domain/dynamic/lifecycle.ts). */
  cap_basis: Generated<string>;
  /** Scans admitted under the cap so far; written on the redirect only for codes with a cap. */
  cap_count: Generated<number>;
  /** Rules, fallback URLs, query passthrough and UTM as JSON; null when all are the defaults. */
  routing_json: string | null;
  /** argon2id; the password itself is never stored. */
  password_hash: string | null;
  /** The custom domain its short link lives on; null: the instance's own address. */
  domain_id: string | null;
}

/** Instance-wide settings (migrations/0013-domains.ts): the public address and the addresses it had. */
export interface InstanceSettingsTable {
  key: string;
  value: string;
  updated_at: DbTime;
}

/** A hostname an account claims for its short links, verified by a DNS TXT record. */
export interface DomainsTable {
  id: string;
  account_id: string;
  /** Lower-case, without a trailing dot. */
  hostname: string;
  /** The value the TXT record at _qrtrack.<hostname> must hold. */
  token: string;
  /** 'pending', 'active' or 'failed' (domain/domains/domain.ts). */
  status: string;
  is_default: DbBool;
  fallback_url: string | null;
  root_redirect: string | null;
  last_error: string | null;
  /** Checks in a row that found no record, while active. */
  misses: Generated<number>;
  created_at: DbTime;
  verified_at: DbTime | null;
  checked_at: DbTime | null;
}

/** Visitors a `unique` scan cap admitted, per item and UTC day. */
export interface CapAdmissionsTable {
  item_id: string;
  day: string;
  visitor_hash: string;
}

export interface ScansTable {
  id: Generated<number>;
  item_id: string;
  scanned_at: DbTime;
  is_bot: DbBool;
  device: string;
  os: string | null;
  browser: string | null;
  country: string | null;
  referrer: string | null;
  visitor_hash: string;
  /** redirect, landing, or why it was refused (scheduled, expired, capped, password_required, password_failed). */
  outcome: Generated<string>;
  rule_id: string | null;
  variant: number | null;
  /** Where the visitor was sent, without the forwarded query; null when refused or a landing page. */
  destination: string | null;
}

/**
 * Scans per item per quarter hour (bucket = minutes since the epoch / 15). Quarter
 * hours because every real time zone offset is a multiple of 15 minutes, so a daily
 * series can be cut exactly at local midnight in any zone.
 */
export interface ScanBucketsTable {
  item_id: string;
  bucket: number;
  scans: number;
  unique_scans: number;
  bot_scans: number;
}

/** Human scans per item, UTC day, dimension and value: the breakdowns. */
export interface ScanDimsDailyTable {
  item_id: string;
  day: string; // 'YYYY-MM-DD' UTC
  dim: string;
  value: string;
  scans: number;
}

/** Human scans per item, quarter hour, dimension and value: where a range cuts a UTC day. */
export interface ScanDimsQuarterTable {
  item_id: string;
  bucket: number;
  dim: string;
  value: string;
  scans: number;
}

/** Visitors seen per item per UTC day: the rule for unique scans. Pruned with the salts. */
export interface ScanVisitorsTable {
  item_id: string;
  day: string;
  visitor_hash: string;
  /** The scan that was the visitor's first of the day (null: recorded before migration 0015). */
  first_scan_id: number | string | null;
}

/** Scans per account per quarter hour: the account's daily series, cut at local midnight like an item's. */
export interface AccountBucketsTable {
  account_id: string;
  bucket: number;
  scans: number;
  unique_scans: number;
  bot_scans: number;
}

/** Human scans per account, UTC day, dimension and value: the account's breakdowns. */
export interface AccountDimsDailyTable {
  account_id: string;
  day: string;
  dim: string;
  value: string;
  scans: number;
}

/** Human scans per account, quarter hour, dimension and value. */
export interface AccountDimsQuarterTable {
  account_id: string;
  bucket: number;
  dim: string;
  value: string;
  scans: number;
}

/**
 * An item's human scans and unique scans up to the end of each UTC day it was scanned on
 * (its counters as they stood when that day's last batch committed). The item's scans since
 * day D are its counter minus the last running total before D: one probe per item.
 */
export interface ItemRunningTotalsTable {
  item_id: string;
  day: string;
  scans: number;
  unique_scans: number;
}

/** A saved design of an account (a "template"); design_json holds every option. */
export interface DesignsTable {
  id: string;
  account_id: string;
  name: string;
  design_json: string;
  created_at: DbTime;
  updated_at: DbTime;
}

/** A code's human scans (its scan_count), apart so the top codes are read by an index. */
export interface ItemScanTotalsTable {
  item_id: string;
  account_id: string;
  scans: number;
}

export interface SaltsTable {
  day: string; // 'YYYY-MM-DD' UTC
  salt: string; // hex
}

/** The first answer to a request sent with an Idempotency-Key, replayed to its retries. */
/** A running import or export of an account (0016): one per account and kind, across processes. */
export interface BulkLeasesTable {
  account_id: string;
  kind: string;
  /** Which job holds it (process and job, random): only it renews or ends it. */
  holder: string;
  /** What runs, for the 409 of a second job: "a CSV export", "a CLI import", … */
  what: string;
  expires_at: DbTime;
}

export interface IdempotencyKeysTable {
  account_id: string;
  key: string;
  /** SHA-256 of the method, path and body: a retry must send the same request. */
  request_hash: string;
  status: number;
  /** The answer's JSON body. */
  response: string;
  created_at: DbTime;
}

/** One row per code and tag (the names are distinct from qr_items' so the two join without aliases). */
export interface QrTagsTable {
  tag_account_id: string;
  tag: string;
  tagged_item_id: string;
  /** The code's created_at: the tag's codes are listed newest first from the index alone. */
  item_created_at: DbTime;
}

/** SQLite only (migration 0010): each account's key, whose token scopes the text index to it. */
export interface SearchAccountsTable {
  key: Generated<number>;
  account_id: string;
}

/** A consumer of the scan log and the last scan id it applied (migration 0015). */
export interface LogCursorsTable {
  name: string;
  position: number | string;
}

/** A receiver of an account's events (migration 0016). */
export interface WebhookEndpointsTable {
  id: string;
  account_id: string;
  url: string;
  description: string;
  /** JSON arrays. */
  events: string;
  filter_tags: string;
  filter_item_ids: string;
  include_bots: DbBool;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: DbTime | null;
  disabled_at: DbTime | null;
  disabled_reason: string | null;
  consecutive_failures: Generated<number>;
  failing_since: DbTime | null;
  created_at: DbTime;
  updated_at: DbTime;
}

/** The outbox: one message per endpoint and event, with its last attempt (the delivery log). */
export interface WebhookMessagesTable {
  seq: Generated<number>;
  id: string;
  endpoint_id: string;
  account_id: string;
  type: string;
  payload_id: string;
  created_at: DbTime;
  status: string;
  attempts: Generated<number>;
  next_attempt_at: DbTime | null;
  last_attempt_at: DbTime | null;
  last_status: number | null;
  last_error: string | null;
  last_duration_ms: number | null;
  last_response: string | null;
  delivered_at: DbTime | null;
}

/** A message's body, shared by the endpoints one event goes to. */
export interface WebhookPayloadsTable {
  id: string;
  /** '' when `scans` names the body's scans. */
  body: string;
  /** JSON of a ScanBatch (webhooks/scan-batches.ts): the body is made from the log when sent. */
  scans: string | null;
  created_at: DbTime;
}

/** An item's one-time event (expired, capped) that was told. */
export interface WebhookNoticesTable {
  item_id: string;
  kind: string;
  created_at: DbTime;
}

export interface Database {
  webhook_endpoints: WebhookEndpointsTable;
  webhook_messages: WebhookMessagesTable;
  webhook_notices: WebhookNoticesTable;
  webhook_payloads: WebhookPayloadsTable;
  accounts: AccountsTable;
  bulk_leases: BulkLeasesTable;
  api_keys: ApiKeysTable;
  qr_items: QrItemsTable;
  scans: ScansTable;
  log_cursors: LogCursorsTable;
  scan_buckets: ScanBucketsTable;
  scan_dims_daily: ScanDimsDailyTable;
  scan_dims_quarter: ScanDimsQuarterTable;
  scan_visitors: ScanVisitorsTable;
  cap_admissions: CapAdmissionsTable;
  salts: SaltsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  sessions: SessionsTable;
  one_time_links: OneTimeLinksTable;
  trusted_devices: TrustedDevicesTable;
  idempotency_keys: IdempotencyKeysTable;
  qr_tags: QrTagsTable;
  account_buckets: AccountBucketsTable;
  account_dims_daily: AccountDimsDailyTable;
  account_dims_quarter: AccountDimsQuarterTable;
  item_running_totals: ItemRunningTotalsTable;
  designs: DesignsTable;
  item_scan_totals: ItemScanTotalsTable;
  search_accounts: SearchAccountsTable;
  instance_settings: InstanceSettingsTable;
  domains: DomainsTable;
}
