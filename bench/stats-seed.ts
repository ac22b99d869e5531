// What the item stats and account overview benches share: codes seeded with synthetic
// scans, the queries they time, and the timing itself, so the two stay comparable.
import type { Db } from '../src/db/database.ts';
import { QrItemsRepository } from '../src/db/qr-items/qr-items-repository.ts';
import type { ScanWriter } from '../src/db/scans/scan-writer.ts';
import { resolveDesign } from '../src/domain/design/design.ts';
import { percentile } from './result-row.ts';
import { type ScanMix, recordScans, syntheticScans } from './scan-seed.ts';

/** The ranges and time zones both benches query: a short range, the default one, and one off UTC. */
export const STATS_QUERIES = [
  [14, 'UTC'],
  [90, 'UTC'],
  [90, 'America/New_York'],
] as const;

/** Creates the URL codes in the account and records `scans` scans over them; `seeded`: seconds the scans took. */
export async function seedCodes(
  db: Db,
  writer: ScanWriter,
  accountId: string,
  codes: readonly { title: string; payload: string }[],
  scans: number,
  mix: ScanMix,
): Promise<{ ids: string[]; seeded: number }> {
  const items = new QrItemsRepository(db);
  const design = resolveDesign(undefined);
  const ids: string[] = [];
  for (const { title, payload } of codes) {
    ids.push((await items.create(accountId, { title, contentType: 'url', payload, fields: {}, design })).id);
  }
  const t0 = Date.now();
  await recordScans(writer, syntheticScans(ids, accountId, scans, mix));
  return { ids, seeded: (Date.now() - t0) / 1000 };
}

/**
 * p50 and p99 in ms of `runs` calls of `query`, after `warmups` untimed ones (JIT, caches,
 * the database's pages). `beforeRuns` runs between the two, e.g. to wait for a quiet machine.
 */
export async function timeQuery(
  query: () => Promise<unknown>,
  { warmups, runs, beforeRuns }: { warmups: number; runs: number; beforeRuns?: () => Promise<void> },
): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < warmups; i++) await query();
  await beforeRuns?.();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    await query();
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}
