// A batch of creates: every item is planned by the same rules as a single create, and
// the batch is all or nothing, so every broken item is named (by its index) at once.
import type { ParsedLogos } from '../design/request-logos.ts';
import { DomainError, ValidationError } from '../errors.ts';
import { type NewQrItemContent, type PlanContext, type PlanSecrets, type QrItemRequest, planCreate } from './qr-item.ts';

export const BATCH_MAX_ITEMS = 1_000;
/** How many broken items one answer names; the rest are counted. */
const ERRORS_SHOWN = 20;

/** What is made ahead of planning an item, off the main thread: its logos parsed, its password hashed. */
export interface PreparedItem {
  logos: ParsedLogos;
  secrets?: PlanSecrets;
  /** The domain its short link lives on (looked up by the caller); absent: the instance's address. */
  domainId?: string | null;
}

/**
 * Plans every item; `prepare` runs just before each item is planned and gives its logos parsed
 * and its password hashed (the HTTP layer does both off the main thread there); its 400s are
 * named by index too.
 */
export async function planBatch(
  requests: readonly QrItemRequest[],
  ctx: PlanContext,
  prepare: (req: QrItemRequest) => Promise<PreparedItem>,
): Promise<NewQrItemContent[]> {
  const errors: string[] = [];
  const planned: NewQrItemContent[] = [];
  for (const [index, req] of requests.entries()) {
    try {
      const { logos, secrets, domainId } = await prepare(req);
      planned.push({ ...planCreate(req, ctx, logos, secrets), domainId: domainId ?? null });
    } catch (err) {
      if (!(err instanceof DomainError) || err.status !== 400) throw err;
      errors.push(`items[${index}].${err.message}`);
    }
  }
  if (errors.length > 0) throw batchError(errors);
  return planned;
}

/** One 400 naming the broken items (`items[12].url: …`), the first twenty of them. */
export function batchError(errors: readonly string[]): ValidationError {
  const more = errors.length > ERRORS_SHOWN ? `; and ${errors.length - ERRORS_SHOWN} more` : '';
  return new ValidationError(errors.slice(0, ERRORS_SHOWN).join('; ') + more);
}
