// Failed sign-ins counted in Redis, shared by every process of the instance: counted per
// process, N processes gave a guesser N times the tries. Each key counts one window, which
// starts at its first failure (SET … PX … NX, then INCR: any Redis version). Emails are
// stored as hashes. While Redis cannot answer, this process's own counts still apply.
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Attempt, AttemptCounter, AttemptLimiter } from '../../domain/accounts/attempt-limiter.ts';

const PREFIX = 'qrtrack-signin:';

export class SharedAttemptLimiter implements AttemptCounter {
  constructor(
    private readonly redis: Redis,
    private readonly local: AttemptLimiter,
    /** Keeps two counters' keys apart (sign-ins, sign-ups). */
    private readonly prefix = PREFIX,
  ) {}

  /**
   * This process's count first, in one step with marking the attempt as running (concurrent
   * attempts here see each other), then the shared count. Attempts running in other processes
   * are not seen until they fail.
   */
  async admit(address: string, email: string): Promise<Attempt> {
    const refused = (wait: number): Attempt => ({ wait, done: async () => {} });
    const localWait = this.local.admit(address, email);
    if (localWait > 0) return refused(localWait);
    const sharedWait = await this.sharedWait(address, email);
    if (sharedWait > 0) {
      this.local.settle(address, email, false);
      return refused(sharedWait);
    }
    return {
      wait: 0,
      done: async (failed) => {
        this.local.settle(address, email, failed);
        if (failed) await this.recordShared(address, email);
      },
    };
  }

  private async sharedWait(address: string, email: string): Promise<number> {
    const { perAddress, perEmail } = this.local.limits;
    try {
      const [a, e] = keysOf(this.prefix, address, email);
      const res = await this.redis.multi().get(a).pttl(a).get(e).pttl(e).exec();
      if (res === null || res.some(([err]) => err !== null)) return 0;
      const [count, ttl, emailCount, emailTtl] = res.map(([, v]) => Number(v ?? 0)) as [number, number, number, number];
      return Math.max(wait(count, ttl, perAddress), wait(emailCount, emailTtl, perEmail));
    } catch {
      return 0; // Redis away: this process's own count (checked above) still applies
    }
  }

  private async recordShared(address: string, email: string): Promise<void> {
    const ms = this.local.limits.windowMs;
    const [a, e] = keysOf(this.prefix, address, email);
    try {
      await this.redis.multi().set(a, 0, 'PX', ms, 'NX').incr(a).set(e, 0, 'PX', ms, 'NX').incr(e).exec();
    } catch {
      // Redis away: the local count holds this process's share.
    }
  }
}

function keysOf(prefix: string, address: string, email: string): [string, string] {
  return [`${prefix}a:${address}`, `${prefix}e:${createHash('sha256').update(email).digest('base64url')}`];
}

/** Seconds left in a window that holds `max` failures or more, else 0. */
function wait(count: number, ttlMs: number, max: number): number {
  return count >= max && ttlMs > 0 ? Math.max(1, Math.ceil(ttlMs / 1000)) : 0;
}
