// The outbox's messages as the delivery worker and the delivery log see them. A worker claims a
// message by moving its next attempt past the attempt's time-out (a lease) in one statement; on
// PostgreSQL the rows are picked FOR UPDATE SKIP LOCKED, so processes never claim one message
// together. A process killed mid-attempt leaves the lease to run out, and the message is sent again
// then: at least once, and twice only for an attempt that was in flight.
import { sql } from 'kysely';
import type { WebhookDelivery } from '../../domain/webhooks/endpoint.ts';
import { DELIVERY_LOG_DAYS, disableAfterFailure, retryDelay } from '../../domain/webhooks/retry-policy.ts';
import { readTimeOrNull } from '../codec.ts';
import type { Db } from '../database.ts';
import { inTransaction } from '../transaction.ts';
import { insertMessages } from './outbox.ts';
import { type ScanBatch, type ScanBatchMaker, scanBatchMaker, sharedCopy } from './scan-batches.ts';
import { readTime } from '../codec.ts';
import type { WebhookMessageType } from '../../domain/webhooks/webhook-events.ts';

export interface ClaimedMessage {
  seq: number;
  id: string;
  endpointId: string;
  type: string;
  /**
   * The body's UTF-8 bytes, in shared memory: handed to the sender thread without a copy, and
   * shared by the endpoints one scan batch goes to. Null: a scan batch none of whose scans is
   * left (forgotten before it was sent); the worker drops it.
   */
  body: Uint8Array | null;
  /** Attempts so far, this one included. */
  attempts: number;
}

export interface AttemptOutcome {
  ok: boolean;
  status: number | null;
  error: string | null;
  durationMs: number;
  response: string | null;
}

/** An attempt's outcome, to be recorded. */
export interface RecordedAttempt {
  message: ClaimedMessage;
  outcome: AttemptOutcome;
  /** When it ended. */
  now: Date;
}

const DAY_MS = 86_400_000;
/**
 * Bodies kept after a claim read or made them: the endpoints one scan batch goes to share its
 * body (some 400 KB), and each claims it within a moment of the others.
 */
const BODY_CACHE_ENTRIES = 16;

interface ClaimRow {
  seq: number;
  id: string;
  endpoint_id: string;
  type: string;
  payload_id: string;
  attempts: number;
}

export class WebhookDeliveriesRepository {
  private readonly bodies = new Map<string, Uint8Array | null>();
  private readonly makeBatch: ScanBatchMaker;

  /** `makeBatch`: where scan batches' bodies are made (the read workers on a SQLite file); here by default. */
  constructor(
    private readonly db: Db,
    makeBatch?: ScanBatchMaker,
  ) {
    this.makeBatch = makeBatch ?? scanBatchMaker(db);
  }

  /**
   * Up to `limit` enabled endpoints with a message due at `now`, in id order from just after
   * `after` and around to the start: the caller passes the last one it served, so every endpoint
   * takes its turn however many are due (a plain LIMIT gave the same first ones every round, and
   * endpoints past them waited for as long as those had a backlog). One index probe per enabled
   * endpoint, whatever the backlog (a DISTINCT over the due messages read them all each round).
   */
  async dueEndpoints(now: Date, limit: number, after: string | null = null): Promise<string[]> {
    const at = this.db.codec.time(now.toISOString());
    const due = (from: string | null, to: string | null, n: number) =>
      this.db.kysely
        .selectFrom('webhook_endpoints as e')
        .select('e.id')
        .where('e.disabled_at', 'is', null)
        .$if(from !== null, (q) => q.where('e.id', '>', from as string))
        .$if(to !== null, (q) => q.where('e.id', '<=', to as string))
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('webhook_messages as m')
              .select('m.seq')
              .whereRef('m.endpoint_id', '=', 'e.id')
              .where('m.status', '=', 'pending')
              .where('m.next_attempt_at', '<=', at),
          ),
        )
        .orderBy('e.id')
        .limit(n)
        .execute();
    const ids = (await due(after, null, limit)).map((r) => r.id);
    if (after !== null && ids.length < limit) ids.push(...(await due(null, after, limit - ids.length)).map((r) => r.id));
    return ids;
  }

  /** Claims up to `n` of the endpoint's due messages, oldest first, for `leaseMs`. */
  async claim(endpointId: string, n: number, now: Date, leaseMs: number): Promise<ClaimedMessage[]> {
    if (n <= 0) return [];
    const at = now.toISOString();
    const lease = new Date(now.getTime() + leaseMs).toISOString();
    // PostgreSQL: the rows are picked in a CTE, run once (an IN (subquery … LIMIT n SKIP LOCKED)
    // may be run again per row and pick more than n). SQLite: one writer, one statement.
    const rows =
      this.db.codec.dialect === 'postgres'
        ? await sql<ClaimRow>`
      with picked as (
        select seq from webhook_messages
        where endpoint_id = ${endpointId} and status = 'pending' and next_attempt_at <= ${at}
        order by next_attempt_at, seq limit ${n} for update skip locked
      )
      update webhook_messages m set next_attempt_at = ${lease}, attempts = m.attempts + 1, last_attempt_at = ${at}
      from picked where m.seq = picked.seq
      returning m.seq, m.id, m.endpoint_id, m.type, m.payload_id, m.attempts`.execute(this.db.kysely)
        : await sql<ClaimRow>`
      update webhook_messages set next_attempt_at = ${lease}, attempts = attempts + 1, last_attempt_at = ${at}
      where seq in (
        select seq from webhook_messages
        where endpoint_id = ${endpointId} and status = 'pending' and next_attempt_at <= ${at}
        order by next_attempt_at, seq limit ${n}
      )
      returning seq, id, endpoint_id, type, payload_id, attempts`.execute(this.db.kysely);
    const bodies = await this.bodiesOf([...new Set(rows.rows.map((r) => r.payload_id))]);
    return rows.rows
      .map((r) => ({
        seq: Number(r.seq),
        id: r.id,
        endpointId: r.endpoint_id,
        type: r.type,
        body: bodies.has(r.payload_id) ? (bodies.get(r.payload_id) ?? null) : new Uint8Array(),
        attempts: Number(r.attempts),
      }))
      .sort((a, b) => a.seq - b.seq);
  }

  /**
   * The payloads' bodies, from the cache, read, or made from the log (a scan batch), as shared
   * bytes, and cached.
   */
  private async bodiesOf(ids: readonly string[]): Promise<Map<string, Uint8Array | null>> {
    const out = new Map<string, Uint8Array | null>();
    const missing = ids.filter((id) => {
      const body = this.bodies.get(id);
      if (body !== undefined) out.set(id, body);
      return body === undefined;
    });
    if (missing.length === 0) return out;
    // Read as bytes: no decoding to a string that would be encoded again to be signed and sent.
    const bytes = this.db.codec.dialect === 'postgres' ? sql`convert_to(body, 'UTF8')` : sql`cast(body as blob)`;
    const rows = await sql<{ id: string; body: Uint8Array; scans: string | null }>`
      select id, ${bytes} as body, scans from webhook_payloads where id in (${sql.join(missing)})`.execute(this.db.kysely);
    for (const r of rows.rows) {
      const body = r.scans === null ? sharedCopy(r.body) : await this.makeBatch(JSON.parse(r.scans) as ScanBatch);
      out.set(r.id, body);
      this.bodies.set(r.id, body);
      if (this.bodies.size > BODY_CACHE_ENTRIES) this.bodies.delete(this.bodies.keys().next().value as string);
    }
    return out;
  }

  /**
   * Stores attempts' outcomes and their consequences, in one transaction: delivered, retried
   * later, failed for good; and for each endpoint, its run of failures, and whether it is now
   * disabled. One transaction per attempt was a commit each on the thread that answers short
   * links (SQLite).
   */
  async recordAttempts(
    attempts: readonly RecordedAttempt[],
    schedule: readonly number[],
    random: () => number = Math.random,
  ): Promise<void> {
    if (attempts.length === 0) return;
    // In endpoint order: two processes' transactions take the endpoints' rows in one order (PostgreSQL).
    const ordered = [...attempts].sort((x, y) =>
      x.message.endpointId < y.message.endpointId ? -1 : x.message.endpointId > y.message.endpointId ? 1 : x.message.seq - y.message.seq,
    );
    await inTransaction(this.db, async (tx) => {
      for (const a of ordered) await recordOne(tx, a, schedule, random);
    });
  }

  /**
   * Ends a claimed message unsent, with `reason` in the delivery log (a scan batch whose scans
   * were all forgotten before it was sent). Not a failure of the endpoint's.
   */
  async drop(message: ClaimedMessage, reason: string, now: Date): Promise<void> {
    await this.db.kysely
      .updateTable('webhook_messages')
      .set({
        status: 'failed',
        next_attempt_at: null,
        last_error: reason,
        last_status: null,
        last_attempt_at: this.db.codec.time(now.toISOString()),
      })
      .where('seq', '=', message.seq)
      .where('attempts', '=', message.attempts)
      .execute();
  }

  /** Gives a claim back untried (the worker is stopping before it sent it). */
  async release(message: ClaimedMessage, now: Date): Promise<void> {
    await this.db.kysely
      .updateTable('webhook_messages')
      .set((eb) => ({ next_attempt_at: this.db.codec.time(now.toISOString()), attempts: eb('attempts', '-', 1) }))
      .where('seq', '=', message.seq)
      .where('status', '=', 'pending')
      .execute();
  }

  /** The endpoint's messages, newest first (the delivery log). */
  async list(endpointId: string, limit: number, beforeSeq?: number): Promise<{ deliveries: WebhookDelivery[]; nextCursor: string | null }> {
    const rows = await this.db.kysely
      .selectFrom('webhook_messages')
      .select([
        'seq',
        'id',
        'type',
        'created_at',
        'status',
        'attempts',
        'last_attempt_at',
        'last_status',
        'last_error',
        'last_duration_ms',
        'last_response',
        'next_attempt_at',
        'delivered_at',
      ])
      .where('endpoint_id', '=', endpointId)
      .$if(beforeSeq !== undefined, (q) => q.where('seq', '<', beforeSeq ?? 0))
      .orderBy('seq', 'desc')
      .limit(limit + 1)
      .execute();
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      deliveries: page.map((r) => ({
        id: r.id,
        type: r.type,
        createdAt: readTime(r.created_at),
        status: r.status as WebhookDelivery['status'],
        attempts: Number(r.attempts),
        lastAttemptAt: readTimeOrNull(r.last_attempt_at),
        responseStatus: r.last_status === null ? null : Number(r.last_status),
        error: r.last_error,
        durationMs: r.last_duration_ms === null ? null : Number(r.last_duration_ms),
        response: r.last_response,
        nextAttemptAt: r.status === 'pending' ? readTimeOrNull(r.next_attempt_at) : null,
        deliveredAt: readTimeOrNull(r.delivered_at),
      })),
      nextCursor: rows.length > limit && last ? String(last.seq) : null,
    };
  }

  /** Queues the message again now, with a fresh run of attempts (same webhook-id). False: no such message. */
  async resend(endpointId: string, messageId: string, now = new Date()): Promise<boolean> {
    const res = await this.db.kysely
      .updateTable('webhook_messages')
      .set({ status: 'pending', attempts: 0, next_attempt_at: this.db.codec.time(now.toISOString()) })
      .where('endpoint_id', '=', endpointId)
      .where('id', '=', messageId)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** Queues one message for one endpoint (the test event). */
  async enqueue(accountId: string, endpointId: string, type: WebhookMessageType, body: string, now = new Date()): Promise<void> {
    await insertMessages(this.db, [{ accountId, endpointId, type, body }], now);
  }

  /** Deletes log rows older than 30 days, a slice at a time, then the bodies no row uses; answers how many rows went. */
  async purge(now = new Date(), slice = 5000): Promise<number> {
    const before = this.db.codec.time(new Date(now.getTime() - DELIVERY_LOG_DAYS * DAY_MS).toISOString());
    let total = 0;
    for (;;) {
      const res = await this.db.kysely
        .deleteFrom('webhook_messages')
        .where('seq', 'in', (eb) => eb.selectFrom('webhook_messages').select('seq').where('created_at', '<', before).limit(slice))
        .executeTakeFirst();
      const n = Number(res.numDeletedRows);
      total += n;
      if (n < slice) break;
      await new Promise((r) => setImmediate(r));
    }
    // Bodies of messages purged, or of endpoints deleted: older than a day and used by no message.
    const dayAgo = this.db.codec.time(new Date(now.getTime() - DAY_MS).toISOString());
    for (;;) {
      const res = await this.db.kysely
        .deleteFrom('webhook_payloads')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('webhook_payloads as p')
            .select('p.id')
            .where('p.created_at', '<', dayAgo)
            .where((w) => w.not(w.exists(w.selectFrom('webhook_messages as m').select('m.seq').whereRef('m.payload_id', '=', 'p.id'))))
            .limit(slice),
        )
        .executeTakeFirst();
      if (Number(res.numDeletedRows) < slice) return total;
      await new Promise((r) => setImmediate(r));
    }
  }
}

/** An attempt's outcome and its consequences, in the caller's transaction. */
async function recordOne(tx: Db, a: RecordedAttempt, schedule: readonly number[], random: () => number): Promise<void> {
  const { message, outcome, now } = a;
  const at = tx.codec.time(now.toISOString());
  const last = {
    last_status: outcome.status,
    last_error: outcome.error,
    last_duration_ms: outcome.durationMs,
    last_response: outcome.response,
    last_attempt_at: at,
  };
  if (outcome.ok) {
    await tx.kysely
      .updateTable('webhook_messages')
      .set({ ...last, status: 'delivered', delivered_at: at, next_attempt_at: null })
      .where('seq', '=', message.seq)
      // A resend during the attempt started a new run: that one stands.
      .where('attempts', '=', message.attempts)
      .execute();
    await tx.kysely
      .updateTable('webhook_endpoints')
      .set({ consecutive_failures: 0, failing_since: null })
      .where('id', '=', message.endpointId)
      .where('consecutive_failures', '>', 0)
      .execute();
    return;
  }
  const delay = retryDelay(schedule, message.attempts, random);
  await tx.kysely
    .updateTable('webhook_messages')
    .set({
      ...last,
      status: delay === null ? 'failed' : 'pending',
      next_attempt_at: delay === null ? null : tx.codec.time(new Date(now.getTime() + delay).toISOString()),
    })
    .where('seq', '=', message.seq)
    .where('attempts', '=', message.attempts)
    .execute();
  const endpoint = await tx.kysely
    .updateTable('webhook_endpoints')
    .set((eb) => ({
      consecutive_failures: eb('consecutive_failures', '+', 1),
      failing_since: eb.fn.coalesce('failing_since', eb.val(at)),
    }))
    .where('id', '=', message.endpointId)
    .returning(['consecutive_failures', 'failing_since', 'disabled_at'])
    .executeTakeFirst();
  if (!endpoint || endpoint.disabled_at !== null) return;
  const since = readTimeOrNull(endpoint.failing_since) ?? now.toISOString();
  const reason = disableAfterFailure(outcome.status, Number(endpoint.consecutive_failures), Date.parse(since), now.getTime());
  if (reason !== null)
    await tx.kysely
      .updateTable('webhook_endpoints')
      .set({ disabled_at: at, disabled_reason: reason })
      .where('id', '=', message.endpointId)
      .execute();
}
