// Short-link targets cached per process on PostgreSQL, kept honest across processes
// with LISTEN/NOTIFY: every change to an item is announced on a channel after it
// commits, and every process drops that code. While the listening connection is
// down the cache is emptied and bypassed, so a process can never serve a paused or
// deleted item from memory it cannot invalidate. A generation counter keeps a lookup
// that raced with an invalidation from re-filling the cache with the old row.
import { setImmediate as nextTurn } from 'node:timers/promises';
import pg from 'pg';
import type { QrItemsRepository, ShortLinkTarget } from '../qr-items/qr-items-repository.ts';
import { cacheStatsOf, type ShortLinkCacheStats, type ShortLinkResolver } from './short-link-cache.ts';
import { type ShortLinkEntries, shortLinkEntries } from './short-link-entries.ts';

export const LINKS_CHANNEL = 'qrtrack_links';
const RECONNECT_MS = 1_000;
/** Short codes are letters and digits, so a space cannot be part of one. */
const SEPARATOR = ' ';
/** A notification's payload must stay under 8,000 bytes (with room for the echo tag). */
const MAX_PAYLOAD = 7_000;
/**
 * How long a change waits for its own announcement to come back. By then the server has sent
 * it to every listening process; past it (listener slow or gone) the answer goes anyway.
 */
const ECHO_WAIT_MS = 250;

/** The codes joined by spaces into payloads of at most MAX_PAYLOAD characters. */
export function packCodes(codes: readonly string[]): string[] {
  const payloads: string[] = [];
  let current = '';
  for (const code of codes) {
    if (current && current.length + SEPARATOR.length + code.length > MAX_PAYLOAD) {
      payloads.push(current);
      current = '';
    }
    current = current ? current + SEPARATOR + code : code;
  }
  if (current) payloads.push(current);
  return payloads;
}

export class PostgresShortLinks implements ShortLinkResolver {
  private readonly entries: ShortLinkEntries;
  private hits = 0;
  private misses = 0;
  private generation = 0;
  private listener: pg.Client | null = null;
  private listening = false;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  /** Announcements this process made, for their echo tags. */
  private announced = 0;
  /** This process's announcements not back yet, by payload. */
  private readonly awaitingEcho = new Map<string, () => void>();

  constructor(
    private readonly items: QrItemsRepository,
    private readonly pool: pg.Pool,
    private readonly connectionString: string,
    /** SHORT_LINK_CACHE_MB (config.ts) in bytes. */
    budgetBytes: number,
  ) {
    this.entries = shortLinkEntries(budgetBytes);
  }

  async start(): Promise<void> {
    await this.listen().catch(() => this.scheduleReconnect());
  }

  async resolve(code: string): Promise<ShortLinkTarget | null> {
    if (!this.listening) {
      this.misses++;
      return this.items.findByCode(code);
    }
    if (this.entries.has(code)) {
      // A busy process reads the socket of a scan and that of an announcement dropping its
      // code in one poll of the event loop, in no set order (docs/decisions/short-link-caching.md):
      // one turn later every announcement read in that poll has been applied.
      await nextTurn();
      const hit = this.entries.get(code);
      if (hit !== undefined) {
        this.hits++;
        return hit;
      }
    }
    this.misses++;
    const generation = this.generation;
    const target = await this.items.findByCode(code);
    if (this.listening && generation === this.generation) {
      this.entries.set(code, target);
    }
    return target;
  }

  /**
   * Local drop at once, and an announcement to every other process: one statement whatever
   * the number of codes (a batch create changes a thousand), the codes packed into as few
   * notifications as fit. Resolves once the announcement came back to this process's own
   * listener (at most ECHO_WAIT_MS): an API answer awaiting it is not sent while the server
   * has yet to tell the other processes (docs/decisions/short-link-caching.md).
   */
  async invalidate(codes: readonly string[]): Promise<void> {
    if (codes.length === 0) return;
    for (const code of codes) this.drop(code);
    // A tag no code can equal (codes are letters and digits) makes each payload this call's own.
    const tag = `~${process.pid}.${++this.announced}`;
    const payloads = packCodes(codes).map((p) => `${p}${SEPARATOR}${tag}`);
    const echoes = this.listening ? payloads.map((p) => this.echoOf(p)) : [];
    const announce = () => this.pool.query('select pg_notify($1, p) from unnest($2::text[]) p', [LINKS_CHANNEL, payloads]);
    // Tried twice, and a failure leaves `listening` alone: the codes were dropped here above, and
    // the listener's own health decides the rest (nothing else would turn the cache on again).
    await announce()
      .catch(announce)
      .catch(() => {});
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(echoes.map((e) => e.heard)),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, ECHO_WAIT_MS))),
    ]);
    clearTimeout(timer);
    for (const e of echoes) e.forget();
  }

  /** A promise resolved when `payload` comes back on the channel, and a way to stop waiting. */
  private echoOf(payload: string): { heard: Promise<void>; forget: () => void } {
    let heard!: () => void;
    const promise = new Promise<void>((resolve) => (heard = resolve));
    this.awaitingEcho.set(payload, heard);
    return { heard: promise, forget: () => this.awaitingEcho.delete(payload) };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.reset();
    await this.listener?.end().catch(() => {});
    this.listener = null;
  }

  cacheStats(): ShortLinkCacheStats {
    return cacheStatsOf(this.entries, this.hits, this.misses);
  }

  private drop(code: string): void {
    this.generation++;
    this.entries.delete(code);
  }

  private reset(): void {
    this.listening = false;
    this.generation++;
    this.entries.clear();
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (msg) => {
      if (msg.channel !== LINKS_CHANNEL || !msg.payload) return;
      for (const code of msg.payload.split(SEPARATOR)) this.drop(code);
      this.awaitingEcho.get(msg.payload)?.();
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    await client.connect();
    await client.query(`listen ${LINKS_CHANNEL}`);
    this.listener = client;
    // Anything cached before we listened may have missed an announcement.
    this.reset();
    this.listening = true;
  }

  private lost(client: pg.Client): void {
    if (this.listener !== client) return;
    this.listener = null;
    this.reset();
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      if (!this.closed) this.listen().catch(() => this.scheduleReconnect());
    }, RECONNECT_MS);
    this.retry.unref();
  }
}
