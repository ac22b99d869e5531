// Answers a create once per Idempotency-Key: the first answer is stored in the same
// transaction as what it created (so in the database, across processes), and a retry
// with the same key and request gets it back with `Idempotent-Replayed: true`.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Db } from '../../db/database.ts';
import { IdempotencyRepository } from '../../db/idempotency-repository.ts';
import { inTransaction } from '../../db/transaction.ts';
import { IDEMPOTENCY_TTL_MS, IdempotencyKeyBusyError, IdempotencyKeyReusedError, requestFingerprint } from '../../domain/idempotency.ts';
import { accountOf } from '../auth/api-key-auth.ts';

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x21-\\x7e]+$',
      rule: 'must be 1 to 255 visible ASCII characters',
      description:
        'Makes the request safe to retry for 24 hours: a retry with the same key and body answers the first answer and creates nothing',
    }),
  ),
});

export interface AnswerOptions<T> {
  /** The body's requestFingerprint when it was made already (a batch's, in a worker). */
  fingerprint?: string | undefined;
  /** Sends an answer, first or replayed (default: reply.code(status).send(body)). */
  send?: (status: number, body: T) => Promise<unknown>;
}

/**
 * With an Idempotency-Key already answered for this request, sends the stored answer (replayed)
 * and returns it; otherwise null. answerOnce does this first; a create that works long before
 * its transaction (a batch) calls it before that work, so a retry costs a read, not the work.
 */
export async function replayAnswered<T>(
  db: Db,
  req: FastifyRequest,
  reply: FastifyReply,
  options: AnswerOptions<T> = {},
): Promise<T | null> {
  const header = req.headers['idempotency-key'];
  if (typeof header !== 'string') return null;
  const send = options.send ?? ((code: number, body: T) => reply.code(code).send(body));
  const fingerprint = options.fingerprint ?? requestFingerprint(req.method, req.routeOptions.url ?? req.url, req.body);
  const notBefore = new Date(Date.now() - IDEMPOTENCY_TTL_MS).toISOString();
  const stored = await new IdempotencyRepository(db).find(accountOf(req), header, notBefore);
  if (!stored) return null;
  if (stored.requestHash !== fingerprint) throw new IdempotencyKeyReusedError();
  reply.header('idempotent-replayed', 'true');
  await send(stored.status, stored.body as T);
  return stored.body as T;
}

/** Thrown inside the transaction to roll it back when another request stored the key first. */
class LostRace extends Error {}

/**
 * Runs `create` (inside a transaction when a key is given) and sends its answer with
 * `status`; returns the body sent, first or replayed.
 */
export async function answerOnce<T>(
  db: Db,
  req: FastifyRequest,
  reply: FastifyReply,
  status: number,
  create: (db: Db) => Promise<T>,
  options: AnswerOptions<T> = {},
): Promise<T> {
  const send = options.send ?? ((code: number, body: T) => reply.code(code).send(body));
  const header = req.headers['idempotency-key'];
  if (typeof header !== 'string') {
    // Still one transaction: an item and its tags are stored together or not at all.
    const body = await inTransaction(db, create);
    await send(status, body);
    return body;
  }
  const account = accountOf(req);
  const fingerprint = options.fingerprint ?? requestFingerprint(req.method, req.routeOptions.url ?? req.url, req.body);
  const now = new Date();
  const notBefore = new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString();
  const replay = () => replayAnswered(db, req, reply, { ...options, fingerprint });

  const earlier = await replay();
  if (earlier !== null) return earlier;
  try {
    const body = await inTransaction(db, async (tx) => {
      const created = await create(tx);
      const stored = await new IdempotencyRepository(tx).store(
        account,
        header,
        { requestHash: fingerprint, status, body: created },
        now.toISOString(),
        notBefore,
      );
      if (!stored) throw new LostRace();
      return created;
    });
    await send(status, body);
    return body;
  } catch (err) {
    if (!(err instanceof LostRace)) throw err;
    const winner = await replay();
    if (winner === null) throw new IdempotencyKeyBusyError();
    return winner;
  }
}
