// The short links' cache itself: targets by code, bounded by the memory they hold rather than by
// their number. A plain URL code holds about half a kilobyte; a code with 25 rules of many values
// holds up to a few megabytes once its rules are compiled (measured: 0.5-3.2 MB), so a bound of
// 50,000 entries let one account's codes, each scanned once, grow the heap past what the process
// has. Oldest first out (Map keeps insertion order).
import type { ShortLinkTarget } from '../qr-items/qr-items-repository.ts';

/** What an absent code (cached as null, so made-up codes are not a query each) is counted as. */
const ABSENT_BYTES = 128;
/** A target larger than this share of the budget is looked up each time rather than flush the rest. */
const LARGEST_SHARE = 8;

interface Entry {
  target: ShortLinkTarget | null;
  bytes: number;
}

export class ShortLinkEntries {
  private readonly entries = new Map<string, Entry>();
  private held = 0;

  constructor(private readonly budgetBytes: number) {
    if (!Number.isFinite(budgetBytes) || budgetBytes < 1) throw new RangeError('budgetBytes must be positive');
  }

  /** The cached target (null: no such code), or undefined when the code is not cached. */
  get(code: string): ShortLinkTarget | null | undefined {
    return this.entries.get(code)?.target;
  }

  has(code: string): boolean {
    return this.entries.has(code);
  }

  set(code: string, target: ShortLinkTarget | null): void {
    this.delete(code);
    const bytes = target === null ? ABSENT_BYTES + 2 * code.length : target.approxBytes;
    if (bytes > this.budgetBytes / LARGEST_SHARE) return;
    while (this.held + bytes > this.budgetBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
    this.entries.set(code, { target, bytes });
    this.held += bytes;
  }

  delete(code: string): void {
    const entry = this.entries.get(code);
    if (entry === undefined) return;
    this.entries.delete(code);
    this.held -= entry.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.held = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The memory the cached targets are estimated to hold. */
  get bytes(): number {
    return this.held;
  }
}
