// Merges the SQLite search index's segments a few pages at a time between turns of the event
// loop. Migration 0019 turned FTS5's automerge off because it ran inside the commit that added
// the codes: an import's commits held the short links' thread 15–85 ms (docs/performance.md).
// Each commit still writes its codes as one new small segment; this merges those segments in
// steps of a few pages, each its own short transaction, with a turn of the event loop between
// steps, so the index stays a few segments deep and a search stays fast.
//
// Cost when there is nothing to merge: one `merge` command that reads the index's structure
// record and writes nothing, about 5 µs, every `idleMs`. Measured over a 200k-code index fed in
// 500-row commits: commits' p99 39 → 10 ms; merge steps p50 0.3 ms, p99 9 ms. A step still
// writes at least one whole term's doclist, so the rare step that merges the largest level runs
// longer (a common trigram's doclist spans every code of the level).
import type BetterSqlite3 from 'better-sqlite3';

export interface SearchIndexMergerOptions {
  /** Between looks when the last found nothing to merge. */
  readonly idleMs?: number;
  /** Between turns while a backlog is being merged. */
  readonly gapMs?: number;
  /** Leaf pages a `merge` command writes at most (it finishes the term it is in). */
  readonly pages?: number;
  /** Steps run back to back in one turn while each is quick. */
  readonly budgetMs?: number;
}

export class SearchIndexMerger {
  private readonly idleMs: number;
  private readonly gapMs: number;
  private readonly pages: number;
  private readonly budgetMs: number;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private statements: { merge: BetterSqlite3.Statement; changes: BetterSqlite3.Statement } | null = null;

  constructor(
    private readonly sqlite: BetterSqlite3.Database,
    options: SearchIndexMergerOptions = {},
  ) {
    this.idleMs = options.idleMs ?? 250;
    this.gapMs = options.gapMs ?? 2;
    this.pages = options.pages ?? 4;
    this.budgetMs = options.budgetMs ?? 2;
  }

  start(): void {
    this.schedule(this.idleMs);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * One merge step: true when it merged something, so more may be left. False when there was
   * nothing to merge, or it could not run now (another statement's transaction is open on this
   * connection, the index does not exist yet, the database is busy or closed).
   */
  step(): boolean {
    if (!this.sqlite.open || this.sqlite.inTransaction) return false;
    // Never wait for another process's write lock (the CLI importing): with the connection's
    // busy_timeout a step would hold the short links' thread until that write ends. A busy step
    // fails at once and is tried again later.
    const waitMs = this.sqlite.pragma('busy_timeout', { simple: true }) as number;
    this.sqlite.pragma('busy_timeout = 0');
    try {
      this.statements ??= {
        merge: this.sqlite.prepare("insert into qr_items_search (qr_items_search, rank) values ('merge', ?)"),
        changes: this.sqlite.prepare('select total_changes()').pluck(),
      };
      const before = this.statements.changes.get() as number;
      this.statements.merge.run(this.pages);
      // The command counts as one change itself; FTS5's own rule: fewer than two, nothing merged.
      return (this.statements.changes.get() as number) - before >= 2;
    } catch {
      // Before migrations, or SQLITE_BUSY from another process's write: look again later.
      this.statements = null;
      return false;
    } finally {
      this.sqlite.pragma(`busy_timeout = ${waitMs}`);
    }
  }

  /** Merges until nothing is left, a turn between steps (tests and tools). */
  async drain(): Promise<void> {
    while (this.step()) await new Promise((resolve) => setTimeout(resolve, 0));
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => this.run(), ms);
    // The timer never keeps a process (the CLI, a test) alive.
    this.timer.unref();
  }

  private run(): void {
    this.timer = null;
    const started = performance.now();
    let more = this.step();
    while (more && performance.now() - started < this.budgetMs) more = this.step();
    this.schedule(more ? this.gapMs : this.idleMs);
  }
}
