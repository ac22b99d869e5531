// The one place where dialect differences in stored values are mapped.
import type { DbBool, DbTime } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Codec {
  readonly dialect: Dialect;
  bool(value: boolean): DbBool;
  time(iso: string): DbTime;
}

export function codecFor(dialect: Dialect): Codec {
  return dialect === 'sqlite' ? { dialect, bool: (v) => (v ? 1 : 0), time: (iso) => iso } : { dialect, bool: (v) => v, time: (iso) => iso };
}

export function readBool(v: DbBool): boolean {
  return v === true || v === 1;
}

export function readTime(v: DbTime): string {
  return v instanceof Date ? v.toISOString() : v;
}

export function readTimeOrNull(v: DbTime | null): string | null {
  return v === null ? null : readTime(v);
}

/** A unique-constraint violation, in either dialect's words. */
export function isUniqueViolation(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = (err as { code?: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}
