// A scan as the log holds it and as its consumers read it back. The log keeps whether a code had
// rules at the time of the scan: rule_id null means "no rules", '' means "rules, none matched"
// (rule ids are at least one letter), so the breakdowns by rule are summed from the log exactly
// as they would have been from the request.
import type { ScanEvent } from '../../domain/scans/scan-batch.ts';
import { readBool, readTime } from '../codec.ts';
import type { DbBool, DbTime } from '../schema.ts';

export interface LoggedScan extends ScanEvent {
  /** The log's id: consumers apply scans in id order past their cursor. */
  id: number;
}

/** The columns a consumer selects (scans s joined to qr_items q for the account). */
export const LOGGED_SCAN_COLUMNS = `s.id, s.item_id, q.account_id, s.scanned_at, s.is_bot, s.device, s.os, s.browser, s.country,
  s.referrer, s.visitor_hash, s.outcome, s.rule_id, s.variant, s.destination`;

export interface LoggedScanRow {
  id: number | string;
  item_id: string;
  account_id: string;
  scanned_at: DbTime;
  is_bot: DbBool;
  device: string;
  os: string | null;
  browser: string | null;
  country: string | null;
  referrer: string | null;
  visitor_hash: string;
  outcome: string;
  rule_id: string | null;
  variant: number | null;
  destination: string | null;
}

export function ruleIdColumn(ruleId: string | null | undefined): string | null {
  return ruleId === undefined ? null : (ruleId ?? '');
}

/**
 * What reading `scan` back from the log with `id` gives (toLoggedScan of the row the writer inserts), made
 * without the round trip: the SQLite writer hands each committed batch to the aggregator so.
 */
export function loggedScanOf(scan: ScanEvent, id: number): LoggedScan {
  const logged: LoggedScan = {
    id,
    itemId: scan.itemId,
    accountId: scan.accountId,
    scannedAt: scan.scannedAt,
    ms: scan.ms ?? Date.parse(scan.scannedAt),
    isBot: scan.isBot,
    device: scan.device,
    os: scan.os,
    browser: scan.browser,
    country: scan.country,
    referrer: scan.referrer,
    visitorHash: scan.visitorHash,
    outcome: scan.outcome ?? 'redirect',
  };
  const day = isoDay(scan.scannedAt);
  if (day !== undefined) logged.day = day;
  if (scan.ruleId !== undefined) {
    logged.ruleId = scan.ruleId;
    logged.variant = scan.variant ?? null;
    logged.destination = scan.destination ?? null;
  }
  return logged;
}

/**
 * The UTC day of a time in UTC's own ISO form (as both dialects give scanned_at back), carried
 * with the scan: summing a slice asks each scan's day several times. Undefined for any other form.
 */
function isoDay(scannedAt: string): string | undefined {
  return scannedAt.length === 24 && scannedAt.endsWith('Z') ? scannedAt.slice(0, 10) : undefined;
}

export function toLoggedScan(row: LoggedScanRow): LoggedScan {
  const scannedAt = readTime(row.scanned_at);
  const hasRules = row.rule_id !== null;
  const scan: LoggedScan = {
    id: Number(row.id),
    itemId: row.item_id,
    accountId: row.account_id,
    scannedAt,
    ms: Date.parse(scannedAt),
    isBot: readBool(row.is_bot),
    device: row.device,
    os: row.os,
    browser: row.browser,
    country: row.country,
    referrer: row.referrer,
    visitorHash: row.visitor_hash,
    outcome: row.outcome,
  };
  const day = isoDay(scannedAt);
  if (day !== undefined) scan.day = day;
  if (hasRules) {
    scan.ruleId = row.rule_id === '' ? null : row.rule_id;
    scan.variant = row.variant;
    scan.destination = row.destination;
  }
  return scan;
}
