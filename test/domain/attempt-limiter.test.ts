import { describe, expect, it } from 'vitest';
import { AttemptLimiter } from '../../src/domain/accounts/attempt-limiter.ts';

describe('AttemptLimiter', () => {
  const limits = { perEmail: 2, perAddress: 3, windowMs: 60_000 };

  it('limits one email whatever the address, until its window ends', () => {
    const l = new AttemptLimiter(limits);
    l.recordFailure('1.1.1.1', 'a@x', 0);
    l.recordFailure('2.2.2.2', 'a@x', 1_000);
    expect(l.retryAfter('3.3.3.3', 'a@x', 1_000)).toBe(59);
    expect(l.retryAfter('3.3.3.3', 'b@x', 1_000)).toBe(0);
    expect(l.retryAfter('3.3.3.3', 'a@x', 60_000)).toBe(0);
  });

  it('limits one address whatever the emails', () => {
    const l = new AttemptLimiter(limits);
    for (const email of ['a@x', 'b@x', 'c@x']) l.recordFailure('1.1.1.1', email, 0);
    expect(l.retryAfter('1.1.1.1', 'd@x', 30_000)).toBe(30);
    expect(l.retryAfter('9.9.9.9', 'd@x', 30_000)).toBe(0);
  });
});

describe('AttemptLimiter, attempts running', () => {
  const limits = { perEmail: 2, perAddress: 3, windowMs: 60_000 };

  it('counts admitted attempts as failed until they settle, so attempts at once see each other', () => {
    const l = new AttemptLimiter(limits);
    expect(l.admit('1.1.1.1', 'a@x', 0)).toBe(0);
    expect(l.admit('2.2.2.2', 'a@x', 0)).toBe(0);
    // Two running for a@x: a third waits (a second, as nothing has failed yet), another email does not.
    expect(l.admit('3.3.3.3', 'a@x', 0)).toBe(1);
    expect(l.admit('3.3.3.3', 'b@x', 0)).toBe(0);
    // A success frees its place; a failure keeps it, now in the window.
    l.settle('1.1.1.1', 'a@x', false, 0);
    l.settle('2.2.2.2', 'a@x', true, 0);
    expect(l.admit('4.4.4.4', 'a@x', 0)).toBe(0);
    l.settle('4.4.4.4', 'a@x', true, 0);
    expect(l.retryAfter('5.5.5.5', 'a@x', 1_000)).toBe(59);
  });
});
