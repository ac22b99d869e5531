// A batch's body (up to 16 MiB) read and validated whole in a render worker: parsing it and
// checking a thousand items' strings held the thread that answers the short links 55–90 ms
// (docs/big-accounts.md). The worker hands back each item as its own JSON text, which the main
// thread parses a few at a time, and the request's fingerprint for its Idempotency-Key.
import { requestFingerprint } from '../../domain/idempotency.ts';
import { BATCH_MAX_ITEMS } from '../../domain/qr-items/qr-batch.ts';
import { BatchCreateBody } from '../schemas/bulk.ts';
import { readJsonBody } from './json-body.ts';
import { validatorCompiler } from './validation.ts';

/** A thousand creates with every field and 20 tags each: about 80,000 values. */
export const BATCH_MAX_JSON_VALUES = BATCH_MAX_ITEMS * 100;

/** What the worker needs of the request: its bytes, its Content-Type, and what its fingerprint names. */
export interface BatchBodyJob {
  bytes: Uint8Array;
  contentType: string | undefined;
  method: string;
  route: string;
}

/** A valid batch: each item's JSON, in order, and the body's fingerprint (requestFingerprint). */
export interface ReadBatch {
  items: string[];
  fingerprint: string;
}

let validate: ReturnType<typeof validatorCompiler> | undefined;

/** Throws the error to answer (a DomainError) when the body is not a valid batch. */
export function readBatchBody(job: BatchBodyJob): ReadBatch {
  const value = readJsonBody(job.bytes, job.contentType, BATCH_MAX_JSON_VALUES);
  validate ??= validatorCompiler({ schema: BatchCreateBody, method: job.method, url: job.route, httpPart: 'body' });
  const checked: unknown = validate(value);
  if (typeof checked === 'object' && checked !== null && 'error' in checked && checked.error instanceof Error) throw checked.error;
  const { items } = value as { items: unknown[] };
  return {
    items: items.map((item) => JSON.stringify(item)),
    fingerprint: requestFingerprint(job.method, job.route, value),
  };
}
