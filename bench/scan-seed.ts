// Synthetic scans for the stats benches, written through the real scan writer so the
// roll-ups measured are the ones production keeps. Deterministic: the same seed gives
// the same scans, so runs compare.
import type { ScanWriter } from '../src/db/scans/scan-writer.ts';
import type { ScanEvent } from '../src/domain/scans/scan-batch.ts';

/** The values scans are drawn from (null: not known, as a real scan may be). */
export interface ScanMix {
  seed: number;
  spanDays: number;
  devices: readonly string[];
  oses: readonly (string | null)[];
  browsers: readonly (string | null)[];
  countries: readonly (string | null)[];
  referrers: readonly (string | null)[];
}

/**
 * `count` scans over the last `mix.spanDays` days, 5 % bots. With several codes every code
 * is scanned once in the first round and the rest skew towards the first codes, as a few
 * codes of an account get most of its scans.
 */
export function* syntheticScans(itemIds: readonly string[], accountId: string, count: number, mix: ScanMix): Generator<ScanEvent> {
  const now = Date.now();
  let seed = mix.seed;
  const rnd = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const pick = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)] as T;
  for (let i = 0; i < count; i++) {
    const itemId =
      i < itemIds.length ? itemIds[i]! : itemIds.length === 1 ? itemIds[0]! : itemIds[Math.floor(itemIds.length * rnd() ** 3)]!;
    yield {
      itemId,
      accountId,
      scannedAt: new Date(now - Math.floor(rnd() * mix.spanDays * 86_400_000)).toISOString(),
      isBot: rnd() < 0.05,
      device: pick(mix.devices),
      os: pick(mix.oses),
      browser: pick(mix.browsers),
      country: pick(mix.countries),
      referrer: pick(mix.referrers),
      visitorHash: Math.floor(rnd() * count * 0.6).toString(16),
    };
  }
}

/** Records the scans, a few thousand in flight at a time (the writer batches them). */
export async function recordScans(writer: ScanWriter, scans: Iterable<ScanEvent>): Promise<void> {
  const CHUNK = 5_000;
  let chunk: Promise<void>[] = [];
  for (const s of scans) {
    chunk.push(writer.record(s));
    if (chunk.length === CHUNK) {
      await Promise.all(chunk);
      chunk = [];
    }
  }
  await Promise.all(chunk);
}
