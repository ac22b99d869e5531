import { describe, expect, it } from 'vitest';
import { Compile } from 'typebox/compile';
import { checkLifecycle, type LifecycleState, lifecycleProperties, QrStatus, statusOf } from '../../../src/domain/dynamic/lifecycle.ts';

const NOW = Date.parse('2026-06-10T12:00:00Z');
const state = (over: Partial<LifecycleState> = {}): LifecycleState => ({
  active: true,
  activatesAt: null,
  expiresAt: null,
  maxScans: null,
  capCount: 0,
  ...over,
});

describe('statusOf', () => {
  it('is active with nothing set', () => {
    expect(statusOf(state(), NOW)).toBe('active');
  });

  it('opens at activatesAt and closes at expiresAt, as ISO strings or epoch ms', () => {
    expect(statusOf(state({ activatesAt: '2026-06-10T12:00:00.001Z' }), NOW)).toBe('scheduled');
    expect(statusOf(state({ activatesAt: '2026-06-10T12:00:00Z' }), NOW)).toBe('active');
    expect(statusOf(state({ activatesAt: NOW + 1 }), NOW)).toBe('scheduled');
    expect(statusOf(state({ expiresAt: NOW }), NOW)).toBe('expired');
    expect(statusOf(state({ expiresAt: '2026-06-10T12:00:00.001Z' }), NOW)).toBe('active');
  });

  it('is capped once the counter reaches maxScans, and open again when maxScans is raised', () => {
    expect(statusOf(state({ maxScans: 10, capCount: 9 }), NOW)).toBe('active');
    expect(statusOf(state({ maxScans: 10, capCount: 10 }), NOW)).toBe('capped');
    expect(statusOf(state({ maxScans: 11, capCount: 10 }), NOW)).toBe('active');
  });

  it('ranks paused > expired > capped > scheduled > active', () => {
    const all = { activatesAt: NOW + 1, expiresAt: NOW, maxScans: 1, capCount: 1 };
    expect(statusOf(state({ ...all, active: false }), NOW)).toBe('paused');
    expect(statusOf(state(all), NOW)).toBe('expired');
    expect(statusOf(state({ ...all, expiresAt: null }), NOW)).toBe('capped');
    expect(statusOf(state({ ...all, expiresAt: null, maxScans: null }), NOW)).toBe('scheduled');
  });
});

describe('checkLifecycle', () => {
  it('normalises instants to ISO UTC and passes null through (it clears)', () => {
    expect(checkLifecycle({ activatesAt: '2026-03-01T09:00:00+01:00', expiresAt: null, maxScans: 500, scanCapBasis: 'unique' })).toEqual({
      activatesAt: '2026-03-01T08:00:00.000Z',
      expiresAt: null,
      maxScans: 500,
      scanCapBasis: 'unique',
    });
    expect(checkLifecycle({})).toEqual({});
  });

  it('refuses instants without an offset or that do not exist', () => {
    for (const bad of ['2026-03-01', '2026-03-01T09:00:00', '2026-02-29T00:00:00Z', '2026-03-01T24:00:00Z', 'next week']) {
      expect(() => checkLifecycle({ expiresAt: bad }), bad).toThrow(
        'expiresAt: must be an ISO 8601 date-time with an offset, e.g. 2026-03-01T09:00:00Z',
      );
    }
    expect(checkLifecycle({ expiresAt: '2028-02-29T23:59:59.999Z' }).expiresAt).toBe('2028-02-29T23:59:59.999Z');
  });

  it('needs activatesAt before expiresAt, also against the stored values', () => {
    expect(() => checkLifecycle({ activatesAt: '2026-03-01T00:00:00Z', expiresAt: '2026-03-01T00:00:00Z' })).toThrow(
      'expiresAt: must be after activatesAt (2026-03-01T00:00:00.000Z)',
    );
    const stored = { activatesAt: null, expiresAt: '2026-03-01T00:00:00.000Z' };
    expect(() => checkLifecycle({ activatesAt: '2026-04-01T00:00:00Z' }, stored)).toThrow(
      'activatesAt: must be before expiresAt (2026-03-01T00:00:00.000Z)',
    );
    expect(checkLifecycle({ activatesAt: '2026-04-01T00:00:00Z', expiresAt: null }, stored)).toEqual({
      activatesAt: '2026-04-01T00:00:00.000Z',
      expiresAt: null,
    });
    expect(checkLifecycle({ activatesAt: '2026-02-01T00:00:00Z' }, stored).activatesAt).toBe('2026-02-01T00:00:00.000Z');
  });

  it('takes maxScans from 1 to 1e9', () => {
    expect(checkLifecycle({ maxScans: 1 }).maxScans).toBe(1);
    expect(checkLifecycle({ maxScans: 1_000_000_000 }).maxScans).toBe(1_000_000_000);
    expect(checkLifecycle({ maxScans: null }).maxScans).toBeNull();
    for (const bad of [0, -1, 1.5, 1_000_000_001, Number.NaN]) {
      expect(() => checkLifecycle({ maxScans: bad }), String(bad)).toThrow('maxScans: must be null or an integer between 1 and 1000000000');
    }
  });

  it('takes scanCapBasis human or unique', () => {
    expect(checkLifecycle({ scanCapBasis: 'human' }).scanCapBasis).toBe('human');
    expect(() => checkLifecycle({ scanCapBasis: 'all' })).toThrow('scanCapBasis: must be one of human, unique');
  });

  it('prefixes field names with the path it is given', () => {
    expect(() => checkLifecycle({ maxScans: 0 }, null, 'items[2]')).toThrow('items[2].maxScans: must be null');
  });
});

describe('lifecycle schemas', () => {
  it('QrStatus lists the five statuses', () => {
    expect(QrStatus.enum).toEqual(['active', 'paused', 'scheduled', 'expired', 'capped']);
    expect(Compile(QrStatus).Check('capped')).toBe(true);
    expect(Compile(QrStatus).Check('deleted')).toBe(false);
  });

  it('the writable fields take null and refuse out-of-range caps', () => {
    const maxScans = Compile(lifecycleProperties.maxScans);
    expect(maxScans.Check(null)).toBe(true);
    expect(maxScans.Check(1)).toBe(true);
    expect(maxScans.Check(0)).toBe(false);
    const at = Compile(lifecycleProperties.expiresAt);
    expect(at.Check('2026-03-01T09:00:00Z')).toBe(true);
    expect(at.Check(null)).toBe(true);
  });
});
