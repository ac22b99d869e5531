// Pause, resume or delete many codes at once (the codes list's bulk bar): one request and
// one statement for up to a page of codes, instead of one request per code.
import type { QrItemRecord } from './qr-item.ts';

export const BULK_ACTIONS = ['pause', 'resume', 'delete'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];
/** The most a list page shows (GET /v1/qr's largest `limit`), so a selected page fits one request. */
export const BULK_MAX_IDS = 200;

type ItemRef = Pick<QrItemRecord, 'id' | 'code'>;

export interface BulkTarget {
  setActiveMany(accountId: string, ids: readonly string[], active: boolean): Promise<ItemRef[]>;
  softDeleteMany(accountId: string, ids: readonly string[]): Promise<ItemRef[]>;
}

export interface BulkResult {
  /** The codes the action applied to, in the order asked (a pause of a paused code counts: it is paused). */
  done: ItemRef[];
  /** Ids that are no live code of this account (deleted, another account's, never existed). */
  notFound: string[];
}

export async function applyBulkAction(
  target: BulkTarget,
  accountId: string,
  action: BulkAction,
  ids: readonly string[],
): Promise<BulkResult> {
  const unique = [...new Set(ids)];
  const found =
    action === 'delete'
      ? await target.softDeleteMany(accountId, unique)
      : await target.setActiveMany(accountId, unique, action === 'resume');
  const byId = new Map(found.map((r) => [r.id, r]));
  return {
    done: unique.flatMap((id) => byId.get(id) ?? []),
    notFound: unique.filter((id) => !byId.has(id)),
  };
}
