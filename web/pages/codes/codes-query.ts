// The list's search and filters live in the address (?q=&kind=&status=&tag=), so a reload,
// a shared link and Back show the same list. Values that are not one of ours are ignored.
import type { CodesFilter, ContentType } from '../../api.ts';
import { type CodeStatus, isStatus } from '../../item-lifecycle.ts';
import { navigate } from '../../router.ts';

export const KINDS: ReadonlyArray<{ value: ContentType; label: string }> = [
  { value: 'url', label: 'Link' },
  { value: 'wifi', label: 'Wi-Fi' },
  { value: 'vcard', label: 'Contact' },
  { value: 'whatsapp', label: 'WhatsApp' },
  { value: 'text', label: 'Text' },
  { value: 'email', label: 'Email' },
];

export const kindLabel = (kind: ContentType): string => KINDS.find((k) => k.value === kind)?.label ?? kind;

export interface CodesQuery {
  q: string;
  kind: ContentType | '';
  status: CodeStatus | '';
  tag: string;
}

export function parseQuery(search: string): CodesQuery {
  const p = new URLSearchParams(search);
  const kind = p.get('kind') ?? '';
  const status = p.get('status') ?? '';
  return {
    q: (p.get('q') ?? '').slice(0, 200),
    kind: KINDS.some((k) => k.value === kind) ? (kind as ContentType) : '',
    status: isStatus(status) ? status : '',
    tag: (p.get('tag') ?? '').slice(0, 64),
  };
}

export function queryString(q: CodesQuery): string {
  const p = new URLSearchParams();
  if (q.q.trim()) p.set('q', q.q);
  if (q.kind) p.set('kind', q.kind);
  if (q.status) p.set('status', q.status);
  if (q.tag) p.set('tag', q.tag);
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** What GET /v1/qr is asked for these filters. */
export function toFilter(q: CodesQuery): CodesFilter {
  return {
    q: q.q.trim() || undefined,
    contentType: q.kind || undefined,
    status: q.status || undefined,
    tag: q.tag || undefined,
  };
}

/** A new address for changed filters: a new search or "Clear filters" adds a history entry; `replace` (a search still being typed, a filter chosen) rewrites it. */
export function showQuery(q: CodesQuery, opts: { replace?: boolean } = {}): void {
  navigate(`/codes${queryString(q)}`, opts);
}

export const isFiltered = (q: CodesQuery): boolean => Boolean(q.q.trim() || q.kind || q.status || q.tag);
