// Failed sign-ins counted in Redis, shared by every process of the instance: counted per
// process, N processes gave a guesser N times the tries. Each key counts one window, which
// starts at its first failure (SET … PX … NX, then INCR: any Redis version). Emails are
// stored as hashes. While Redis cannot answer, this process's own counts still apply.
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { AttemptCounter, AttemptLimiter } from '../domain/accounts/attempt-limiter.ts';

const PREFIX = 'qrtrack-signin:';

export class SharedAttemptLimiter implements AttemptCounter {
  constructor(
    private readonly redis: Redis,
    private readonly local: AttemptLimiter,
  ) {}

  async retryAfter(address: string, email: string): Promise<number> {
    const local = this.local.retryAfter(address, email);
    const { perAddress, perEmail } = this.local.limits;
    try {
      const [a, e] = keysOf(address, email);
      const res = await this.redis.multi().get(a).pttl(a).get(e).pttl(e).exec();
      if (res === null || res.some(([err]) => err !== null)) return local;
      const [count, ttl, emailCount, emailTtl] = res.map(([, v]) => Number(v ?? 0)) as [number, number, number, number];
      return Math.max(local, wait(count, ttl, perAddress), wait(emailCount, emailTtl, perEmail));
    } catch {
      return local;
    }
  }

  async recordFailure(address: string, email: string): Promise<void> {
    this.local.recordFailure(address, email);
    const ms = this.local.limits.windowMs;
    const [a, e] = keysOf(address, email);
    try {
      await this.redis.multi().set(a, 0, 'PX', ms, 'NX').incr(a).set(e, 0, 'PX', ms, 'NX').incr(e).exec();
    } catch {
      // Redis away: the local count above still holds this process's share.
    }
  }
}

function keysOf(address: string, email: string): [string, string] {
  return [`${PREFIX}a:${address}`, `${PREFIX}e:${createHash('sha256').update(email).digest('base64url')}`];
}

/** Seconds left in a window that holds `max` failures or more, else 0. */
function wait(count: number, ttlMs: number, max: number): number {
  return count >= max && ttlMs > 0 ? Math.max(1, Math.ceil(ttlMs / 1000)) : 0;
}
