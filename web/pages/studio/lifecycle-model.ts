// When a code works and how: its schedule, scan cap and fallbacks, its password, and what it
// adds to the destination's query string, as the studio edits them (dates as the browser's
// datetime-local text, numbers as typed) and as the API takes them (ISO UTC, null clears).
import {
  CODE_PASSWORD_MAX as PASSWORD_MAX,
  CODE_PASSWORD_MIN as PASSWORD_MIN,
  MAX_SCANS_LIMIT,
  type ScanCapBasis,
} from '../../../src/domain/dynamic/lifecycle.ts';
import { FALLBACK_FIELDS, UTM_FIELDS } from '../../../src/domain/dynamic/rules-schema.ts';
import { type ContentType, normalizeHttpUrl } from '../../../src/domain/payload/index.ts';
import type { QrItem } from '../../api.ts';

export type { ScanCapBasis };
export const FALLBACK_STATES = FALLBACK_FIELDS;
export type FallbackState = (typeof FALLBACK_STATES)[number];
export const UTM_PARTS = UTM_FIELDS;
export type UtmPart = (typeof UTM_PARTS)[number];
export { CODE_PASSWORD_MAX as PASSWORD_MAX, CODE_PASSWORD_MIN as PASSWORD_MIN } from '../../../src/domain/dynamic/lifecycle.ts';

/** The kinds whose short link redirects: only their visitors can be sent elsewhere by rules or given a query string. */
export const REDIRECT_KINDS: ReadonlySet<ContentType> = new Set<ContentType>(['url', 'whatsapp', 'email']);

/** The lifecycle and passthrough fields as the API reads and writes them. */
export type LifecycleFields = Pick<
  QrItem,
  'activatesAt' | 'expiresAt' | 'maxScans' | 'scanCapBasis' | 'fallbackUrls' | 'forwardQuery' | 'utm'
>;

export interface LifecycleDraft {
  /** datetime-local text in the browser's zone; '' for none. */
  activatesAt: string;
  expiresAt: string;
  maxScans: string;
  scanCapBasis: ScanCapBasis;
  fallbackUrls: Record<FallbackState, string>;
  forwardQuery: boolean;
  utm: Record<UtmPart, string>;
}

/** A password typed now (never stored in the draft's stash), or the stored one removed. */
export interface PasswordDraft {
  value: string;
  remove: boolean;
}

export const NO_PASSWORD_CHANGE: PasswordDraft = { value: '', remove: false };

export function emptyLifecycle(): LifecycleDraft {
  return {
    activatesAt: '',
    expiresAt: '',
    maxScans: '',
    scanCapBasis: 'human',
    fallbackUrls: { scheduled: '', expired: '', capped: '' },
    forwardQuery: true,
    utm: { source: '', medium: '', campaign: '', term: '', content: '' },
  };
}

export function lifecycleOf(f: LifecycleFields): LifecycleDraft {
  const empty = emptyLifecycle();
  return {
    activatesAt: localInput(f.activatesAt),
    expiresAt: localInput(f.expiresAt),
    maxScans: f.maxScans === null ? '' : String(f.maxScans),
    scanCapBasis: f.scanCapBasis,
    fallbackUrls: { ...empty.fallbackUrls, ...f.fallbackUrls },
    forwardQuery: f.forwardQuery,
    utm: { ...empty.utm, ...f.utm },
  };
}

/** The fields as the API takes them (call once the draft passed its checks). */
export function lifecycleFields(d: LifecycleDraft): LifecycleFields {
  return {
    activatesAt: isoOf(d.activatesAt),
    expiresAt: isoOf(d.expiresAt),
    maxScans: d.maxScans.trim() === '' ? null : Number(d.maxScans),
    scanCapBasis: d.scanCapBasis,
    fallbackUrls: Object.fromEntries(
      FALLBACK_STATES.filter((s) => d.fallbackUrls[s].trim() !== '').map((s) => [s, normalizedUrl(d.fallbackUrls[s])]),
    ),
    forwardQuery: d.forwardQuery,
    utm: Object.fromEntries(UTM_PARTS.filter((p) => d.utm[p].trim() !== '').map((p) => [p, d.utm[p].trim()])),
  };
}

/** The browser's own time zone, in which the date inputs are read. */
export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** ISO (any zone) → the datetime-local text of that moment in the browser's zone. */
export function localInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** datetime-local text (the browser's zone) → ISO UTC; null for none or nonsense. */
export function isoOf(local: string): string | null {
  if (local.trim() === '') return null;
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

function normalizedUrl(s: string): string {
  try {
    return normalizeHttpUrl(s, 'url');
  } catch {
    return s.trim();
  }
}

/** The message of a URL the API would refuse, in the words of its own rule; undefined when fine or empty. */
export function urlError(s: string): string | undefined {
  if (s.trim() === '') return undefined;
  try {
    normalizeHttpUrl(s, 'url');
    return undefined;
  } catch (e) {
    const m = e instanceof Error ? e.message.replace(/^url: /, '') : 'must be an http or https URL';
    return m.charAt(0).toUpperCase() + m.slice(1);
  }
}

/** Problems keyed by the field names the form uses (`activatesAt`, `fallbackUrls.expired`, `password`, ...). */
export function checkLifecycle(d: LifecycleDraft, password: PasswordDraft): Record<string, string> {
  const errors: Record<string, string> = {};
  const from = isoOf(d.activatesAt);
  const to = isoOf(d.expiresAt);
  if (d.activatesAt.trim() !== '' && from === null) errors.activatesAt = 'Enter a date and a time';
  if (d.expiresAt.trim() !== '' && to === null) errors.expiresAt = 'Enter a date and a time';
  if (from !== null && to !== null && from >= to) errors.expiresAt = 'Must be after the time the code starts working';
  const cap = d.maxScans.trim();
  if (cap !== '' && !(/^\d+$/.test(cap) && Number(cap) >= 1 && Number(cap) <= MAX_SCANS_LIMIT)) {
    errors.maxScans = `Enter a whole number from 1 to ${MAX_SCANS_LIMIT.toLocaleString('en')}, or leave it empty for no limit`;
  }
  for (const s of FALLBACK_STATES) {
    const e = urlError(d.fallbackUrls[s]);
    if (e) errors[`fallbackUrls.${s}`] = e;
  }
  const n = [...password.value].length;
  if (password.value !== '' && (n < PASSWORD_MIN || n > PASSWORD_MAX)) {
    errors.password = `Must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters (now ${n})`;
  }
  return errors;
}
