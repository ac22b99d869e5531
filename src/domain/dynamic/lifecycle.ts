// An item's lifecycle: when its short link opens and closes, and how many scans it takes. The
// status is computed when read (nothing flips at midnight), from the fields and the cap counter.
// Browser-safe (the studio shows the same badges): TypeBox and plain functions only.
import { Type } from 'typebox';
import { ValidationError } from '../errors.ts';
import { Enum, named } from '../schema-kit.ts';
import { parseInstant } from './date-time.ts';

export const ITEM_STATUSES = ['active', 'paused', 'scheduled', 'expired', 'capped'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];
export const QrStatus = named('QrStatus', Enum(ITEM_STATUSES, 'Computed when read: paused > expired > capped > scheduled > active'));

export const SCAN_CAP_BASES = ['human', 'unique'] as const;
export type ScanCapBasis = (typeof SCAN_CAP_BASES)[number];
export const ScanCapBasis = named(
  'ScanCapBasis',
  Enum(SCAN_CAP_BASES, 'human: scans counted in scanCount (no HEAD, prefetch, bot or link preview); unique: unique visitors'),
);

export const MAX_SCANS_LIMIT = 1_000_000_000;

/** A code's password, in characters (here, not in code-password.ts, so the studio can read them). */
export const CODE_PASSWORD_MIN = 8;
export const CODE_PASSWORD_MAX = 128;

const Instant = (description: string) =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    rule: 'must be null or an ISO 8601 date-time with an offset, e.g. 2026-03-01T09:00:00Z',
    description,
  });

/** The writable lifecycle fields of create and PATCH (`null` clears), for the item schemas. */
export const lifecycleProperties = {
  activatesAt: Instant('The short link opens at this instant'),
  expiresAt: Instant('The short link closes (410) at this instant; after activatesAt'),
  maxScans: Type.Union([Type.Integer({ minimum: 1, maximum: MAX_SCANS_LIMIT }), Type.Null()], {
    rule: `must be null or an integer between 1 and ${MAX_SCANS_LIMIT}`,
    description: 'The short link closes (410) once this many scans were counted',
  }),
  scanCapBasis: ScanCapBasis,
};

/** What the status depends on. Instants as epoch ms (what a cached item should hold) or ISO strings. */
export interface LifecycleState {
  active: boolean;
  activatesAt: number | string | null;
  expiresAt: number | string | null;
  maxScans: number | null;
  /** The counter the cap reads: human scans or unique visitors, as scanCapBasis says. */
  capCount: number;
}

const instantMs = (v: number | string): number => (typeof v === 'number' ? v : Date.parse(v));

/**
 * The status at `nowMs`. Precedence paused > expired > capped > scheduled > active: the owner's
 * switch first, then the end of the code's life, and "not open yet" only for a code that would
 * otherwise answer. Expiry and activation are inclusive of their instant (open at activatesAt,
 * closed at expiresAt).
 */
export function statusOf(item: LifecycleState, nowMs: number): ItemStatus {
  if (!item.active) return 'paused';
  if (item.expiresAt !== null && nowMs >= instantMs(item.expiresAt)) return 'expired';
  if (item.maxScans !== null && item.capCount >= item.maxScans) return 'capped';
  if (item.activatesAt !== null && nowMs < instantMs(item.activatesAt)) return 'scheduled';
  return 'active';
}

/** Lifecycle fields as a request gives them: absent = unchanged, null = cleared. */
export interface LifecycleInput {
  activatesAt?: string | null;
  expiresAt?: string | null;
  maxScans?: number | null;
  scanCapBasis?: string;
}

/** The checked fields: instants normalised to ISO UTC (`2026-03-01T08:00:00.000Z`). */
export interface LifecyclePatch {
  activatesAt?: string | null;
  expiresAt?: string | null;
  maxScans?: number | null;
  scanCapBasis?: ScanCapBasis;
}

/** The stored values a PATCH is merged with, to check activatesAt < expiresAt on the result. */
export interface LifecycleCurrent {
  activatesAt: string | null;
  expiresAt: string | null;
}

/**
 * Checks and normalises lifecycle input. `current` (the stored item, for a PATCH) completes
 * the pair for the order check; `path` prefixes every field name (`items[2]` → `items[2].maxScans`).
 */
export function checkLifecycle(input: LifecycleInput, current: LifecycleCurrent | null = null, path = ''): LifecyclePatch {
  const field = (name: string) => (path === '' ? name : `${path}.${name}`);
  const out: LifecyclePatch = {};
  for (const name of ['activatesAt', 'expiresAt'] as const) {
    const value = input[name];
    if (value !== undefined) out[name] = value === null ? null : new Date(parseInstant(value, field(name))).toISOString();
  }
  if (input.maxScans !== undefined) {
    const m = input.maxScans;
    if (m !== null && (typeof m !== 'number' || !Number.isInteger(m) || m < 1 || m > MAX_SCANS_LIMIT)) {
      throw new ValidationError(`${field('maxScans')}: must be null or an integer between 1 and ${MAX_SCANS_LIMIT}`);
    }
    out.maxScans = m;
  }
  if (input.scanCapBasis !== undefined) {
    if (!(SCAN_CAP_BASES as readonly string[]).includes(input.scanCapBasis)) {
      throw new ValidationError(`${field('scanCapBasis')}: must be one of ${SCAN_CAP_BASES.join(', ')}`);
    }
    out.scanCapBasis = input.scanCapBasis as ScanCapBasis;
  }
  const activatesAt = out.activatesAt !== undefined ? out.activatesAt : (current?.activatesAt ?? null);
  const expiresAt = out.expiresAt !== undefined ? out.expiresAt : (current?.expiresAt ?? null);
  if (activatesAt !== null && expiresAt !== null && Date.parse(activatesAt) >= Date.parse(expiresAt)) {
    // Name the field the request changed; when it set both, the later one is the one to fix.
    const blamed = out.expiresAt !== undefined ? 'expiresAt' : 'activatesAt';
    throw new ValidationError(
      blamed === 'expiresAt'
        ? `${field('expiresAt')}: must be after activatesAt (${activatesAt})`
        : `${field('activatesAt')}: must be before expiresAt (${expiresAt})`,
    );
  }
  return out;
}
