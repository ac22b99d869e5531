// Long writes (an import, a tag rename, a batch's staging, bulk actions back to back) fill the
// WAL faster than the checkpointer's timer empties it: a checkpoint that other commits overtake
// never finishes, so the WAL never starts over, and at wal_autocheckpoint frames the writer's own
// connection checkpoints on every commit: a copy and an fsync on the thread that answers the
// short links (docs/performance.md, "The four misses").
// So a long write looks at the WAL between its slices and, past a few megabytes, waits (the
// event loop free) for the checkpointer to copy it whole; its next transaction starts the WAL over.
// While a reader holds old frames (an export in a read worker) the WAL cannot start over: each
// pace then waits for a drain that fails after a few tries, which slows the long write, not the
// short links. FTS5's merging, which ran at commit too, is done between turns since migration 0019
// (search-index-merger.ts).
import fs from 'node:fs';
import os from 'node:os';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Frames (pages) the WAL may hold before a long write waits for a checkpoint: 16 MiB of 4 KiB pages. */
export const WAL_PACE_FRAMES = 4_000;

/**
 * The WAL-index header (https://www.sqlite.org/walformat.html, "The WAL-Index Format"), in the
 * -shm file every connection maps: mxFrame, the frames in the WAL since it last started over,
 * is the u32 at byte 16, in the machine's byte order. One pread of 40 bytes, a few microseconds.
 * The writer's automatic checkpoint runs when mxFrame reaches wal_autocheckpoint. The salt (two
 * u32 at byte 32) changes each time the WAL starts over.
 */
const MX_FRAME = 16;
const SALT = 32;
/** How often the hot paths look at the WAL's length (a pread each time). */
const LOOK_EVERY_MS = 50;
/** After a restart failed (a reader held old frames), how long before the next try. */
const RETRY_AFTER_FAILED_MS = 2_000;
/** The longest the commits are held for a restart's last copy (8–80 ms measured), and its first copy's bound. */
const HOLD_MAX_MS = 100;
const COPY_MAX_MS = 5_000;
const LITTLE_ENDIAN = os.endianness() === 'LE';

export class WalPacer {
  private readonly buffer = Buffer.alloc(SALT + 8);
  private fd: number | null = null;

  constructor(
    private readonly file: string,
    private readonly drain: () => Promise<boolean>,
    private readonly maxFrames = WAL_PACE_FRAMES,
  ) {}

  /** Frames in the WAL (0 when the WAL-index cannot be read). */
  frames(): number {
    return this.header()?.frames ?? 0;
  }

  /** The WAL's length and salt (it changes each time the WAL starts over), or null when the WAL-index cannot be read. */
  private header(): { frames: number; salt: string } | null {
    try {
      this.fd ??= fs.openSync(`${this.file}-shm`, 'r');
      if (fs.readSync(this.fd, this.buffer, 0, this.buffer.length, 0) < this.buffer.length) return null;
    } catch {
      return null;
    }
    const frames = LITTLE_ENDIAN ? this.buffer.readUInt32LE(MX_FRAME) : this.buffer.readUInt32BE(MX_FRAME);
    return { frames, salt: this.buffer.toString('hex', SALT, SALT + 8) };
  }

  /** A restart's last copy, while commits are held. */
  private restart: Promise<boolean> | null = null;
  /** A restart's first copy, commits going on. */
  private copying = false;
  private nextLook = 0;
  /** The WAL's salt and length when the last restart's copy ended: the next write should start it over. */
  private lastRestart: { salt: string; frames: number } | null = null;

  /**
   * Whether the scan writer and the aggregator must hold their commits now, so the WAL can start
   * over; `resume` is called once they may commit again. Under a steady stream of scans the
   * checkpointer's copies never finish before the next commit, so without this the WAL grew past
   * wal_autocheckpoint within seconds and the writer's connection then checkpointed (a copy and an
   * fsync) after every commit, on the thread that answers short links (docs/performance.md, "The WAL
   * under a stream of scans"). So, once the WAL is past maxFrames, the checkpointer
   * first copies it without holding anything, then copies the few frames committed meanwhile while
   * the commits wait (8–80 ms measured, most ~20 ms: the copy and the database file's fsync): the
   * next commit starts the WAL over. A restart that did
   * not take (a reader held the WAL: an export) is not tried again for a while.
   */
  holdCommits(resume: () => void): boolean {
    if (this.restart !== null) {
      void this.restart.then(resume);
      return true;
    }
    const now = performance.now();
    if (now < this.nextLook || this.copying) return false;
    this.nextLook = now + LOOK_EVERY_MS;
    const wal = this.header();
    if (wal === null || wal.frames <= this.maxFrames) return false;
    const last = this.lastRestart;
    if (last !== null && last.salt === wal.salt) {
      // The WAL has not started over since the last restart's copy. Its length unchanged: no write
      // began since (the WAL-index still shows the copied WAL) and the next one starts it over.
      // Longer: a reader kept it from starting over; not again for a while.
      if (wal.frames === last.frames) return false;
      this.lastRestart = null;
      this.nextLook = now + RETRY_AFTER_FAILED_MS;
      return false;
    }
    // First the bulk of it, commits going on.
    this.copying = true;
    void this.boundedDrain(COPY_MAX_MS).then(() => {
      this.copying = false;
      // A write may have started the WAL over after that copy already: nothing to hold for.
      if (this.header()?.salt !== wal.salt) return;
      this.restart = this.boundedDrain(HOLD_MAX_MS).then((done) => {
        this.restart = null;
        const after = done ? this.header() : null;
        this.lastRestart = after === null ? null : { salt: after.salt, frames: after.frames };
        if (!done) this.nextLook = performance.now() + RETRY_AFTER_FAILED_MS;
        return done;
      });
    });
    return false;
  }

  /** Resolves when commits may go again (at once when none are held). */
  released(): Promise<void> {
    return this.restart === null ? Promise.resolve() : this.restart.then(() => {});
  }

  /** The checkpointer's drain, or false after `ms` (a stuck worker must not hold the scans' commits). */
  private boundedDrain(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    return Promise.race([this.drain(), late]).finally(() => clearTimeout(timer));
  }

  /** True while a restart's last copy runs and commits are held (the aggregator waits too). */
  get holding(): boolean {
    return this.restart !== null;
  }

  /** A turn of the event loop, and when the WAL has grown past maxFrames a wait for the checkpointer to empty it. */
  async pace(): Promise<void> {
    await nextTurn();
    if (this.frames() > this.maxFrames) await this.drain();
  }

  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }
}
