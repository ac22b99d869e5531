// The aggregator: applies the scan log to the roll-ups past their cursor, in bounded slices,
// off the redirect's path. A read that must hold every scan answered before it began waits in
// catchUp() until the cursor has passed the log's end as it stood when the read began
// (docs/scan-pipeline.md says why a wait and not roll-ups plus a tail).
// SQLite: in the server process, a slice per turn of the event loop, started by each committed
// batch. PostgreSQL: every process runs it, but a slice is applied under an advisory lock, so one
// process at a time does; the others see the cursor move.
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { ServiceBusyError } from '../../domain/errors.ts';
import type { CommitGate, Db } from '../database.ts';
import { LOGGED_SCAN_COLUMNS, type LoggedScan, type LoggedScanRow, toLoggedScan } from './logged-scan.ts';
import { APPLY_SLICE, rollupParameterSteps } from './postgres-rollup-statement.ts';
import { SqliteRollups } from './sqlite-rollups.ts';

export interface AggregatorLag {
  /** Scans logged past the roll-ups' cursor when last looked. */
  scans: number;
  /** How long the roll-ups have been behind the log (0 when caught up). */
  seconds: number;
}

export interface RollupAggregator {
  /** Resolves once the roll-ups hold every scan committed before the call; 503 after `timeoutMs`. */
  catchUp(timeoutMs?: number): Promise<void>;
  /** Scans were appended: apply them soon. */
  nudge(): void;
  /**
   * The scans of a batch this process committed, as the log holds them, ids included: a slice
   * applies them from memory rather than reading them back, where they are all its scans.
   */
  offer(logged: readonly LoggedScan[]): void;
  lag(): AggregatorLag;
  /** Starts the periodic pass (PostgreSQL: picks up other processes' scans). */
  start(onError: (err: unknown) => void): void;
  /** Stops, after applying what is logged (shutdown). */
  stop(): Promise<void>;
  /**
   * Pauses this process's slices until the returned release is called (the forgetter rewrites a
   * day's roll-ups from a plan read off the main thread, which must not move under it). Reads
   * meanwhile wait in catchUp() as they would for a lagging aggregator.
   */
  hold(): () => void;
}

/** How long a read waits for the roll-ups before answering 503. */
const CATCH_UP_TIMEOUT_MS = 10_000;

export function createAggregator(db: Db): RollupAggregator {
  if (db.sqlite) return new SqliteAggregator(new SqliteRollups(db.sqlite), db.commitGate);
  if (db.pool) return new PostgresAggregator(db.pool);
  throw new Error('database has neither a SQLite handle nor a PostgreSQL pool');
}

function behind(): ServiceBusyError {
  return new ServiceBusyError('statistics are catching up with the scans; try again in a moment', 1);
}

/** What both dialects share: the run loop, its waiters and the lag. */
abstract class Aggregator implements RollupAggregator {
  protected position = -1;
  private running: Promise<void> | null = null;
  private again = false;
  private behindSince: number | null = null;
  private pending = 0;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private gapTimer: NodeJS.Timeout | undefined;
  private lastRun = 0;
  /** Told after each slice (and when a run ends), so a waiting read looks at the cursor again. */
  private sliceWaiters: (() => void)[] = [];
  private onError: (err: unknown) => void = () => {};
  private holds = 0;

  /** Applies one slice; answers how many scans it applied, or null when another process holds the lock. */
  protected abstract applyOne(): Promise<{ applied: number; position: number; end: number } | null>;
  /** The log's end now: every scan committed before this call has an id at most this. */
  protected abstract logEnd(): Promise<number>;
  protected abstract readPosition(): Promise<number>;
  /** How often the aggregator looks at the log unasked (0: never). */
  protected abstract readonly intervalMs: number;
  /** The least time between two runs started by new scans: each run may cost a lock (PostgreSQL). */
  protected abstract readonly minGapMs: number;

  /** Committed scans of this process not applied yet, in id order, at most HANDED_MAX (older ones are read from the log). */
  protected handed: LoggedScan[] = [];

  offer(logged: readonly LoggedScan[]): void {
    const first = logged[0];
    if (first === undefined) return;
    // This process's ids only grow (one batch at a time); should they not, nothing kept could be trusted.
    const last = this.handed[this.handed.length - 1];
    if (last !== undefined && first.id <= last.id) this.handed = [];
    for (const scan of logged) this.handed.push(scan);
    if (this.handed.length > HANDED_MAX) this.handed.splice(0, this.handed.length - HANDED_MAX);
  }

  /** Lets go of the handed scans the roll-ups now hold (ids up to `position`). */
  protected appliedThrough(position: number): void {
    let applied = 0;
    while (applied < this.handed.length && (this.handed[applied] as LoggedScan).id <= position) applied++;
    if (applied > 0) this.handed.splice(0, applied);
  }

  start(onError: (err: unknown) => void): void {
    this.onError = onError;
    this.kick();
    if (this.intervalMs > 0) this.timer = setInterval(() => this.kick(), this.intervalMs).unref();
  }

  nudge(): void {
    const wait = this.lastRun + this.minGapMs - Date.now();
    if (wait <= 0) {
      this.kick();
      return;
    }
    if (this.gapTimer === undefined) {
      this.gapTimer = setTimeout(() => {
        this.gapTimer = undefined;
        this.kick();
      }, wait).unref();
    }
  }

  /** Runs now, or once more after the run in progress. */
  private kick(): void {
    // Held: the release kicks.
    if (this.stopped || this.holds > 0) return;
    if (this.running !== null) {
      this.again = true;
      return;
    }
    this.lastRun = Date.now();
    this.running = this.run().finally(() => {
      this.running = null;
      for (const f of this.sliceWaiters.splice(0)) f();
      if (this.again && !this.stopped) {
        this.again = false;
        this.kick();
      }
    });
  }

  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      if (this.holds === 0) this.kick();
    };
  }

  private async run(): Promise<void> {
    try {
      for (;;) {
        if (this.holds > 0) return;
        const before = this.position;
        const slice = await this.applyOne();
        if (slice === null) return;
        this.position = slice.position;
        this.pending = Math.max(0, slice.end - slice.position);
        if (this.pending === 0) this.behindSince = null;
        else this.behindSince ??= Date.now();
        for (const f of this.sliceWaiters.splice(0)) f();
        // Done when caught up, or when a slice moved nothing (the log's end is not settled further yet).
        if (this.pending === 0 || slice.position <= before) return;
        await nextTurn();
      }
    } catch (err) {
      this.onError(err);
      // A failed slice changed nothing; try again shortly rather than spin.
      await sleep(50);
    }
  }

  async catchUp(timeoutMs = CATCH_UP_TIMEOUT_MS): Promise<void> {
    const target = await this.logEnd();
    if (this.position >= target) return;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      this.position = Math.max(this.position, await this.readPosition());
      if (this.position >= target) return;
      if (Date.now() > deadline || this.stopped) throw behind();
      this.kick();
      // Ours: wait for its next slice. Another process's (the lock was taken): look again soon.
      await Promise.race([new Promise<void>((resolve) => this.sliceWaiters.push(resolve)), sleep(10)]);
    }
  }

  lag(): AggregatorLag {
    return { scans: this.pending, seconds: this.behindSince === null ? 0 : (Date.now() - this.behindSince) / 1000 };
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    clearTimeout(this.gapTimer);
    try {
      await this.catchUp(5_000);
    } catch (err) {
      this.onError(err);
    }
    this.stopped = true;
    await this.running;
  }
}

/**
 * A slice on SQLite holds the thread that answers short links: its size follows how long the
 * last one took, aiming at a few milliseconds (a hot code's scans share their roll-up rows and go
 * fast; a long tail's each touch a dozen rows of their own).
 */
const SQLITE_SLICE = { first: 256, min: 16, max: 2_048, targetMs: 4 };
/** Scans kept in memory for the aggregator: a few slices' worth (some 400 bytes each). */
const HANDED_MAX = 8_192;

class SqliteAggregator extends Aggregator {
  protected readonly intervalMs = 1_000;
  // Not at every batch: each run costs a transaction and the cursor's reads whatever it applies,
  // and a hot code's scans of 25 ms share their roll-up rows. Measured as the server's CPU per
  // redirect (one hot code, 100k requests, alternating runs on a loaded machine): 73–93 µs run
  // at every batch, 62–78 µs with this gap. A read that needs the roll-ups does not wait for it.
  protected readonly minGapMs = 25;
  private size = SQLITE_SLICE.first;

  constructor(
    private readonly rollups: SqliteRollups,
    private readonly gate?: CommitGate,
  ) {
    super();
  }

  protected async applyOne() {
    // The WAL is starting over (wal-pacer.ts): a few milliseconds, at most 100.
    while (this.gate?.holding === true) await this.gate.released();
    const started = performance.now();
    const slice = this.rollups.applySlice(this.size, this.handed);
    const ms = performance.now() - started;
    this.appliedThrough(slice.position);
    // Only a full slice says how long this many scans take.
    if (slice.applied === this.size) {
      if (ms > SQLITE_SLICE.targetMs * 1.5) this.size = Math.max(SQLITE_SLICE.min, Math.floor(this.size / 2));
      else if (ms < SQLITE_SLICE.targetMs / 2) this.size = Math.min(SQLITE_SLICE.max, this.size * 2);
    }
    return { applied: slice.applied, position: slice.position, end: this.rollups.state().end };
  }

  protected async logEnd(): Promise<number> {
    return this.rollups.state().end;
  }

  protected async readPosition(): Promise<number> {
    return this.rollups.state().position;
  }
}

/** Scans per slice on PostgreSQL: one statement of a few tens of milliseconds. */
const POSTGRES_SLICE = 2_000;
/**
 * The advisory lock that makes one process at a time the aggregator ('qrro' in ASCII), per schema:
 * instances in different schemas of one server (and the tests) each have their own.
 */
export const AGGREGATOR_LOCK = 0x7172726f;

/**
 * Runs `work` in a transaction holding the aggregator's lock; null, without running it, while
 * another process holds the lock.
 */
async function asAggregator<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T | null> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const locked = await client.query<{ ok: boolean }>('select pg_try_advisory_xact_lock($1, hashtext(current_schema())) as ok', [
      AGGREGATOR_LOCK,
    ]);
    if (locked.rows[0]?.ok !== true) {
      await client.query('rollback');
      return null;
    }
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/** A slice's statement values (null: no scans), and how many scans the log held in its range when they were made. */
interface AheadSlice {
  from: number;
  upTo: number;
  logged: number;
  values: string[] | null;
}

class PostgresAggregator extends Aggregator {
  /** How often a process looks for other processes' scans. */
  protected readonly intervalMs = 200;
  protected readonly minGapMs = 50;
  /** The log's settled end as last read under the lock: slices up to it need no new lock. */
  private settled = 0;
  /** The next slice, read and summed while the one before it runs (null: none under way). */
  private ahead: { slice: Promise<AheadSlice | null>; read: boolean } | null = null;

  constructor(private readonly pool: pg.Pool) {
    super();
  }

  protected async logEnd(): Promise<number> {
    const res = await this.pool.query<{ last_value: string; is_called: boolean }>('select last_value, is_called from scans_id_seq');
    const r = res.rows[0];
    return r === undefined ? 0 : r.is_called ? Number(r.last_value) : Number(r.last_value) - 1;
  }

  protected async readPosition(): Promise<number> {
    const res = await this.pool.query<{ position: string }>(`select position from log_cursors where name = 'rollups'`);
    return Number(res.rows[0]?.position ?? 0);
  }

  /**
   * The settled end, read under a brief lock that waits for the batches in flight (scan-log.ts);
   * null while another process holds the aggregator's lock. New batches queue behind a waiting
   * table lock, so it is only asked for by the lock's holder (a forget or a retention slice, which
   * hold it too, are never waited on) and for at most 200 ms.
   */
  private settle(): Promise<number | null> {
    return asAggregator(this.pool, async (client) => {
      await client.query(`set local lock_timeout = '200ms'`);
      await client.query('lock table scans in share row exclusive mode');
      const res = await client.query<{ last_value: string; is_called: boolean }>('select last_value, is_called from scans_id_seq');
      const r = res.rows[0];
      return r === undefined ? 0 : r.is_called ? Number(r.last_value) : Number(r.last_value) - 1;
    });
  }

  protected async applyOne() {
    let position = this.position < 0 ? await this.readPosition() : this.position;
    if (position >= this.settled) {
      // Nothing new since the last look costs one read, not a lock.
      const end = await this.logEnd();
      if (end <= position) {
        position = await this.readPosition();
        return { applied: 0, position, end: Math.max(end, position) };
      }
      const settled = await this.settle();
      if (settled === null) return null;
      this.settled = settled;
    }
    return asAggregator(this.pool, async (client) => {
      const cursor = await client.query<{ position: string }>(`select position from log_cursors where name = 'rollups' for update`);
      const from = Number(cursor.rows[0]?.position ?? 0);
      // Another process may have applied what this one was handed.
      this.appliedThrough(from);
      // A range of ids, not a LIMIT: ids are dense (gaps only where a batch failed), so a range of
      // SLICE ids holds at most SLICE scans, and the planner, whose row estimates lag a growing log,
      // cannot pick a plan that reads everything up to the settled end to sort it for each slice.
      const upTo = Math.max(from, Math.min(this.settled, from + POSTGRES_SLICE));
      const slice = (await this.takeAhead(client, from, upTo)) ?? (await this.makeSlice(client, from, upTo));
      // The next slice is read and summed while this one's statement runs in PostgreSQL: a spread
      // slice's reading and summing (some 60 ms of 2,000 scans) are then off the aggregator's path.
      if (upTo < this.settled) this.ahead = this.makeAhead(upTo, Math.min(this.settled, upTo + POSTGRES_SLICE));
      if (slice.values !== null) {
        // The statement's estimated cost grows with the roll-up tables until PostgreSQL compiles it
        // (jit_above_cost): some 150 ms of compiling for a slice that runs in a few hundred.
        await client.query('set local jit = off');
        await client.query({ name: 'qrtrack_apply_rollups', text: APPLY_SLICE, values: slice.values });
      }
      await client.query(`update log_cursors set position = $1 where name = 'rollups'`, [upTo]);
      this.appliedThrough(upTo);
      return { applied: slice.logged, position: upTo, end: this.settled };
    });
  }

  /**
   * The slice's values from the scans this process was handed when it logged every one of them
   * (the ids the log holds in the range, read alone, are exactly the handed ones: other processes
   * log into the same ranges), else from the log. Nothing adds to a settled range; a forget or a
   * retention slice may take scans out of it, but they take the aggregator's lock, held here.
   */
  private async makeSlice(q: Queryable, from: number, upTo: number, onRead?: () => void): Promise<AheadSlice> {
    const kept = this.handed.filter((s) => s.id > from && s.id <= upTo);
    const ids = kept.length === 0 ? null : await rangeIds(q, from, upTo);
    const slice = ids !== null && sameIds(ids, kept) ? { logged: ids.length, scans: kept } : await readSlice(q, from, upTo);
    onRead?.();
    return { from, upTo, logged: slice.logged, values: slice.scans.length === 0 ? null : await statementValues(slice.scans) };
  }

  /** makeSlice outside the lock, for the slice after the one being applied. */
  private makeAhead(from: number, upTo: number): NonNullable<PostgresAggregator['ahead']> {
    const ahead = { slice: Promise.resolve<AheadSlice | null>(null), read: false };
    ahead.slice = this.makeSlice(this.pool, from, upTo, () => {
      ahead.read = true;
    }).catch(() => null); // made again under the lock, where an error counts
    return ahead;
  }

  /** The slice made ahead, if it is this range's and the log still holds exactly its scans. */
  private async takeAhead(client: pg.PoolClient, from: number, upTo: number): Promise<AheadSlice | null> {
    const made = this.ahead;
    this.ahead = null;
    // Not waited for while it still needs the database: it reads on a pooled connection, and a
    // forget holding one may be waiting for the lock this slice holds.
    if (made === null || !made.read) return null;
    const ahead = await made.slice;
    if (ahead === null || ahead.from !== from || ahead.upTo !== upTo) return null;
    // Made without the lock: a forget or a retention slice may have taken scans out since. Nothing
    // is ever added to a settled range and ids are never used twice, so the same count is the same scans.
    const res = await client.query<{ n: string }>('select count(*) as n from scans where id > $1 and id <= $2', [from, upTo]);
    return Number(res.rows[0]?.n) === ahead.logged ? ahead : null;
  }
}

type Queryable = pg.Pool | pg.PoolClient;

/** The ids the log holds in (from, upTo], in order. */
async function rangeIds(q: Queryable, from: number, upTo: number): Promise<number[]> {
  const res = await q.query<{ ids: string[] }>(
    'select coalesce(array_agg(id order by id), array[]::bigint[]) as ids from scans where id > $1 and id <= $2',
    [from, upTo],
  );
  return (res.rows[0]?.ids ?? []).map(Number);
}

function sameIds(ids: readonly number[], scans: readonly LoggedScan[]): boolean {
  if (ids.length !== scans.length) return false;
  for (let i = 0; i < ids.length; i++) if (ids[i] !== (scans[i] as LoggedScan).id) return false;
  return true;
}

/**
 * The statement's values for a slice's scans, in steps with a turn of the event loop between them:
 * a spread slice of 2,000 scans takes 15 to 25 ms of the thread that answers short links in all.
 */
async function statementValues(scans: readonly LoggedScan[]): Promise<string[]> {
  const steps = rollupParameterSteps(scans);
  for (;;) {
    await nextTurn();
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/**
 * The slice's scans read from the log (another process's among them, or after a restart), and
 * how many the log holds in the range (a scan of a code no longer stored is not applied).
 */
async function readSlice(q: Queryable, from: number, upTo: number): Promise<{ logged: number; scans: LoggedScan[] }> {
  const rows = await q.query<Omit<LoggedScanRow, 'account_id'> & { account_id: string | null }>(
    `select ${LOGGED_SCAN_COLUMNS} from scans s left join qr_items q on q.id = s.item_id
     where s.id > $1 and s.id <= $2 order by s.id`,
    [from, upTo],
  );
  return { logged: rows.rows.length, scans: rows.rows.filter((r): r is LoggedScanRow => r.account_id !== null).map(toLoggedScan) };
}
