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
 * is the u32 at byte 16, in the machine's byte order. One pread of 100 bytes, a few microseconds.
 * The writer's automatic checkpoint runs when mxFrame reaches wal_autocheckpoint. The salt (two
 * u32 at byte 32) changes each time the WAL starts over; nBackfill (byte 96, in the checkpoint
 * information after the header's two copies) is how many frames a checkpoint has copied.
 */
const MX_FRAME = 16;
const SALT = 32;
const N_BACKFILL = 96;
/** How often the hot paths look at the WAL's length (a pread each time). */
const LOOK_EVERY_MS = 50;
/** After a restart failed (a reader held old frames), how long before the next try. */
const RETRY_AFTER_FAILED_MS = 2_000;
/** The longest the commits are held for a restart's last copy (it copies at most HOLD_FRAMES: a few milliseconds). */
const HOLD_MAX_MS = 100;
/** The longest a copy before the hold may take (a stuck worker must not stop the restarts for good). */
const COPY_MAX_MS = 5_000;
/** Frames (1 MiB) few enough to copy while commits are held; the copies before the hold go on until this few are left, at most COPY_PASSES of them. */
const HOLD_FRAMES = 256;
const COPY_PASSES = 4;
const LITTLE_ENDIAN = os.endianness() === 'LE';

export class WalPacer {
  private readonly buffer = Buffer.alloc(N_BACKFILL + 4);
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

  /** The WAL's length, how much of it is copied, and its salt (it changes each time the WAL starts over); null when the WAL-index cannot be read. */
  header(): { frames: number; copied: number; salt: string } | null {
    try {
      this.fd ??= fs.openSync(`${this.file}-shm`, 'r');
      if (fs.readSync(this.fd, this.buffer, 0, this.buffer.length, 0) < this.buffer.length) return null;
    } catch {
      return null;
    }
    const u32 = (at: number) => (LITTLE_ENDIAN ? this.buffer.readUInt32LE(at) : this.buffer.readUInt32BE(at));
    return { frames: u32(MX_FRAME), copied: u32(N_BACKFILL), salt: this.buffer.toString('hex', SALT, SALT + 8) };
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
   * under a stream of scans"). So, once the WAL is past maxFrames, the checkpointer copies it
   * without holding anything until a few frames are left, then copies those while the commits
   * wait (a few milliseconds): the next commit starts the WAL over. A restart that did not take (a
   * reader held the WAL: an export) is not tried again for a while.
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
    void this.restartFrom(wal.salt);
    return false;
  }

  /**
   * Copies the WAL, commits going on, until only a few frames are left to copy (each pass copies
   * what was committed during the one before), then copies those while commits are held.
   */
  private async restartFrom(salt: string): Promise<void> {
    this.copying = true;
    try {
      for (let pass = 0; pass < COPY_PASSES; pass++) {
        if (!(await this.boundedDrain(COPY_MAX_MS))) {
          // A reader keeps old frames (or the worker is stuck): holding commits would not help.
          this.nextLook = performance.now() + RETRY_AFTER_FAILED_MS;
          return;
        }
        const wal = this.header();
        // A write started the WAL over after that copy already: nothing to hold for.
        if (wal === null || wal.salt !== salt) return;
        if (wal.frames - wal.copied <= HOLD_FRAMES) break;
      }
    } finally {
      this.copying = false;
    }
    this.restart = this.boundedDrain(HOLD_MAX_MS).then((done) => {
      this.restart = null;
      const after = done ? this.header() : null;
      this.lastRestart = after === null ? null : { salt: after.salt, frames: after.frames };
      if (!done) this.nextLook = performance.now() + RETRY_AFTER_FAILED_MS;
      return done;
    });
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
