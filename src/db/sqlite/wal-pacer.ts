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
 * is the u32 at byte 16, in the machine's byte order. One pread of 20 bytes, a few microseconds.
 * The writer's automatic checkpoint runs when mxFrame reaches wal_autocheckpoint.
 */
const MX_FRAME = 16;
const LITTLE_ENDIAN = os.endianness() === 'LE';

export class WalPacer {
  private readonly header = Buffer.alloc(MX_FRAME + 4);
  private fd: number | null = null;

  constructor(
    private readonly file: string,
    private readonly drain: () => Promise<boolean>,
    private readonly maxFrames = WAL_PACE_FRAMES,
  ) {}

  /** Frames in the WAL (0 when the WAL-index cannot be read). */
  frames(): number {
    try {
      this.fd ??= fs.openSync(`${this.file}-shm`, 'r');
      if (fs.readSync(this.fd, this.header, 0, this.header.length, 0) < this.header.length) return 0;
    } catch {
      return 0;
    }
    return LITTLE_ENDIAN ? this.header.readUInt32LE(MX_FRAME) : this.header.readUInt32BE(MX_FRAME);
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
