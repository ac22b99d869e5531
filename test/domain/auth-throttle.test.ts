import { describe, expect, it } from 'vitest';
import { AuthThrottle } from '../../src/http/auth/auth-throttle.ts';
import { nestsDeeperThan } from '../../src/http/request/json-depth.ts';

describe('AuthThrottle', () => {
  it('lets an address fail up to the limit, then makes it wait out the rest of the minute', () => {
    let now = 1_000_000;
    const throttle = new AuthThrottle(3, () => now);
    for (let i = 0; i < 3; i++) {
      expect(throttle.retryAfter('a')).toBe(0);
      throttle.recordFailure('a');
    }
    expect(throttle.retryAfter('a')).toBe(60);
    expect(throttle.retryAfter('b')).toBe(0);
    now += 45_500;
    expect(throttle.retryAfter('a')).toBe(15);
    now += 14_500;
    expect(throttle.retryAfter('a')).toBe(0);
    throttle.recordFailure('a');
    expect(throttle.retryAfter('a')).toBe(0);
  });
});

describe('AuthThrottle lookups in flight', () => {
  it('counts running lookups against the address, and a shared secret once', async () => {
    const throttle = new AuthThrottle(3, () => 1_000_000);
    const resolvers: (() => void)[] = [];
    const slow = () => new Promise<null>((resolve) => resolvers.push(() => resolve(null)));
    const lookups = [throttle.lookup('a', 'x', slow), throttle.lookup('a', 'y', slow)];
    // The same secret again joins the first lookup.
    const joined = throttle.lookup('a', 'x', slow);
    expect(resolvers).toHaveLength(2);
    expect(throttle.retryAfter('a')).toBe(0);
    lookups.push(throttle.lookup('a', 'z', slow));
    expect(throttle.retryAfter('a')).toBe(1);
    expect(throttle.retryAfter('b')).toBe(0);
    for (const r of resolvers) r();
    await Promise.all([...lookups, joined]);
    expect(throttle.retryAfter('a')).toBe(0);
    throttle.recordFailure('a');
    throttle.recordFailure('a');
    const one = throttle.lookup('a', 'w', slow);
    expect(throttle.retryAfter('a')).toBe(60);
    resolvers.at(-1)!();
    await one;
    expect(throttle.retryAfter('a')).toBe(0);
  });
});

describe('AuthThrottle and secrets seen valid', () => {
  it('does not count the lookups of secrets seen valid lately against their address', async () => {
    const throttle = new AuthThrottle(2, () => 1_000_000);
    const resolvers: (() => void)[] = [];
    const slow = () => new Promise<null>((resolve) => resolvers.push(() => resolve(null)));
    for (const k of ['k1', 'k2', 'k3']) throttle.vouch(k);
    // Three valid keys of three clients behind one address, looked up at once.
    const running = ['k1', 'k2', 'k3'].map((k) => throttle.lookup('nat', k, slow));
    // A fourth client's new key is not held back by them.
    expect(throttle.retryAfter('nat', 'k4')).toBe(0);
    const fresh = throttle.lookup('nat', 'k4', slow);
    const guess = throttle.lookup('nat', 'k5', slow);
    // Two unknown secrets running: the limit.
    expect(throttle.retryAfter('nat', 'k6')).toBe(1);
    for (const r of resolvers) r();
    await Promise.all([...running, fresh, guess]);
    expect(throttle.retryAfter('nat', 'k6')).toBe(0);
  });
});

describe('nestsDeeperThan', () => {
  it('counts object and array nesting outside strings, escapes included', () => {
    expect(nestsDeeperThan('{"a":[1,{"b":2}]}', 3)).toBe(false);
    expect(nestsDeeperThan('{"a":[1,{"b":[2]}]}', 3)).toBe(true);
    expect(nestsDeeperThan('{"a":"[[[[[[\\"[[[["}', 1)).toBe(false);
    expect(nestsDeeperThan('"\\\\"[[', 1)).toBe(true);
    expect(nestsDeeperThan('[]'.repeat(1000), 1)).toBe(false);
  });

  it('reads a megabyte of brackets in one pass', () => {
    const text = '['.repeat(1 << 20);
    expect(nestsDeeperThan(text, 32)).toBe(true);
    expect(nestsDeeperThan(`"${text}"`, 32)).toBe(false);
  });
});
