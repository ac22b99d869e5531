// The only place the browser app calls /v1. Types come from the server's own schemas
// (type-only imports: nothing of the server is bundled). Every state-changing request
// carries the session's CSRF token; errors arrive as ApiError with the field named.
import type {
  ApiKeyListItem,
  CreatedInvite,
  CreatedKey,
  InstanceView,
  InvitePreview,
  InviteView,
  LinkView,
  MemberView,
  ResetPreview,
  RotatedKey,
  SessionView,
} from '../src/http/schemas/account.ts';
import type { Static } from 'typebox';
import type { BatchCreateResponse, BulkActionBody, BulkActionResponse } from '../src/http/schemas/bulk.ts';
import type { CreateQrBody, ItemWithWarningsResponse, ListResponse, UpdateQrBody } from '../src/http/schemas/qr-items.ts';
import type { AccountStatsResponse, RecentResponse, StatsResponse } from '../src/http/schemas/stats.ts';
import type { TagListResponse } from '../src/http/schemas/tags.ts';
import type { SavedDesign as SavedDesignSchema } from '../src/http/schemas/designs.ts';
import type { QrDesign } from '../src/domain/design/design-schema.ts';
import type { DomainView, PublicAddressView } from '../src/http/schemas/domains.ts';
import type { ContentType } from '../src/domain/payload/index.ts';
import type { CreateWebhookRequest, UpdateWebhookRequest, WebhookDelivery, WebhookEndpoint } from '../src/http/schemas/webhooks.ts';
import type { RulesTestRequest, RulesTestResult } from '../src/domain/dynamic/rules-schema.ts';

export type { ContentType };
export type {
  ApiKeyListItem,
  CreatedInvite,
  CreatedKey,
  InstanceView,
  InvitePreview,
  InviteView,
  LinkView,
  MemberView,
  ResetPreview,
  RotatedKey,
  SessionView,
};
export type { DomainView, PublicAddressView };
export type Role = SessionView['account']['role'];
export type WebhookView = Static<typeof WebhookEndpoint>;
export type WebhookDeliveryView = Static<typeof WebhookDelivery>;
export type { CreateWebhookRequest, UpdateWebhookRequest };
export type Scope = SessionView['scopes'][number];
export type QrList = Static<typeof ListResponse>;
export type QrItem = QrList['items'][number];
/** Computed by the server when read: paused > expired > capped > scheduled > active. */
export type CodeStatus = QrItem['status'];
export type Sparklines = NonNullable<QrList['sparklines']>;
export type BulkAction = Static<typeof BulkActionBody>['action'];
export type BulkResult = Static<typeof BulkActionResponse>;
export type TagCount = Static<typeof TagListResponse>['tags'][number];
/** The list's filters, as GET /v1/qr takes them. */
export type CodesFilter = { q?: string; contentType?: ContentType; status?: CodeStatus; tag?: string };
export type CodeStats = Static<typeof StatsResponse>;
export type AccountStats = Static<typeof AccountStatsResponse>;
export type RecentScans = Static<typeof RecentResponse>;
export type CreateQrRequest = Static<typeof CreateQrBody>;
export type UpdateQrRequest = Static<typeof UpdateQrBody>;
export type SavedQr = Static<typeof ItemWithWarningsResponse>;
export type BatchCreated = Static<typeof BatchCreateResponse>;
/** What an export selects: the list's filters the export routes take. */
export type ExportFilter = { q?: string; contentType?: ContentType; tag?: string; active?: boolean };
export type SavedDesign = Static<typeof SavedDesignSchema>;
export type RecentScan = CodeStats['recent'][number];
export type StatsBreakdown = CodeStats['breakdown'];

/** A visitor described to POST /v1/qr/{id}/rules/test, and what the rules would do with them. */
export type VisitorTest = Static<typeof RulesTestRequest>;
export type RuleTestResult = Static<typeof RulesTestResult>;

const statsQuery = (days: number, tz: string) => `days=${days}&tz=${encodeURIComponent(tz)}`;

/** A refused request: `field` is the part before the colon of `{"error": "field: rule"}`, when there is one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field: string | null,
    readonly retryAfter: number | null,
    /** The server's message as sent (a batch's names every broken item: `items[3].url: …; items[9].title: …`). */
    readonly raw: string = message,
  ) {
    super(message);
  }
}

let csrfToken: string | null = null;
const signedOutListeners = new Set<() => void>();

/** Called when a request finds the session gone (expired, signed out elsewhere, removed). */
export function onSignedOut(listener: () => void): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

/**
 * The account this tab works in, sent with every request: another tab may switch the session
 * to another account, and this tab must go on acting on the one it shows. Kept per tab (and
 * across its reloads) in sessionStorage.
 */
const TAB_ACCOUNT = 'qrtrack.account';
let tabAccount: string | null = readTabAccount();

function readTabAccount(): string | null {
  try {
    return sessionStorage.getItem(TAB_ACCOUNT);
  } catch {
    return null; // storage blocked: the tab follows the session
  }
}

/** A link to /v1 (an image, a CSV) for this tab's account: links cannot carry the header. */
function linked(path: string): string {
  return tabAccount === null ? path : `${path}${path.includes('?') ? '&' : '?'}account=${encodeURIComponent(tabAccount)}`;
}

function remember(session: SessionView): SessionView {
  csrfToken = session.csrfToken;
  tabAccount = session.account.id;
  try {
    sessionStorage.setItem(TAB_ACCOUNT, tabAccount);
  } catch {
    // storage blocked: kept in memory for this page
  }
  return session;
}

async function call<T>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
  opts: { quiet401?: boolean } = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken !== null) headers['x-csrf-token'] = csrfToken;
  if (tabAccount !== null) headers['x-qrtrack-account'] = tabAccount;
  let res: Response;
  try {
    res = await fetch(`/v1${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'The server cannot be reached. Check your connection and try again.', null, null);
  }
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text === '' ? null : JSON.parse(text);
  } catch {
    // not JSON: a proxy's error page
  }
  if (!res.ok) {
    const raw =
      typeof data === 'object' && data !== null && 'error' in data
        ? String((data as { error: unknown }).error)
        : `Request failed (${res.status})`;
    // A path may index into lists: `rules[3].conditions[1].values[0]: not a country code`.
    const m = /^([A-Za-z][\w.[\]]*): (.+)$/.exec(raw);
    const retry = res.headers.get('retry-after');
    // Only a session this page held can end: with none (never signed in, or already told),
    // a 401 is just a refusal.
    if (res.status === 401 && !opts.quiet401 && csrfToken !== null) {
      csrfToken = null;
      for (const l of signedOutListeners) l();
    }
    throw new ApiError(
      res.status,
      m ? capitalise(m[2] as string) : raw,
      m ? (m[1] as string) : null,
      retry === null ? null : Number(retry),
      raw,
    );
  }
  return data as T;
}

/** A download read here (not by the browser's own download), so its progress can be shown: bytes so far, and the whole when the server said. */
async function download(path: string, onBytes: (received: number, total: number | null) => void): Promise<Blob> {
  let res: Response;
  try {
    // A fetch can carry the tab's account as a header (the export routes take no `account` in the query).
    res = await fetch(path, { credentials: 'same-origin', headers: tabAccount === null ? {} : { 'x-qrtrack-account': tabAccount } });
  } catch {
    throw new ApiError(0, 'The server cannot be reached. Check your connection and try again.', null, null);
  }
  if (!res.ok) {
    const text = await res.text();
    let message = `Request failed (${res.status})`;
    try {
      const data: unknown = JSON.parse(text);
      if (typeof data === 'object' && data !== null && 'error' in data) message = String((data as { error: unknown }).error);
    } catch {
      // not JSON
    }
    throw new ApiError(res.status, message, null, null);
  }
  const length = Number(res.headers.get('content-length') ?? NaN);
  const total = Number.isFinite(length) ? length : null;
  const parts: Uint8Array[] = [];
  let received = 0;
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    received += value.byteLength;
    onBytes(received, total);
  }
  return new Blob(parts as BlobPart[], { type: res.headers.get('content-type') ?? 'application/octet-stream' });
}

/** A CSV upload with its progress (fetch cannot report an upload's): XMLHttpRequest, with the same headers as `call`. */
function uploadCsv<T>(path: string, csv: string, onSent: (sent: number, total: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/v1${path}`);
    xhr.setRequestHeader('content-type', 'text/csv; charset=utf-8');
    xhr.setRequestHeader('accept', 'application/json');
    if (csrfToken !== null) xhr.setRequestHeader('x-csrf-token', csrfToken);
    if (tabAccount !== null) xhr.setRequestHeader('x-qrtrack-account', tabAccount);
    xhr.upload.onprogress = (e) => onSent(e.loaded, e.total);
    xhr.onerror = () => reject(new ApiError(0, 'The server cannot be reached. Check your connection and try again.', null, null));
    xhr.onload = () => {
      let data: unknown = null;
      try {
        data = JSON.parse(xhr.responseText);
      } catch {
        // not JSON: a proxy's error page
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(data as T);
      const raw =
        typeof data === 'object' && data !== null && 'error' in data
          ? String((data as { error: unknown }).error)
          : `Request failed (${xhr.status})`;
      reject(new ApiError(xhr.status, raw, null, null));
    };
    xhr.send(csv);
  });
}

function filterQuery(filter: ExportFilter): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) if (v !== undefined && v !== '') qs.set(k, String(v));
  return qs.toString();
}

/** An image drawn by POST /v1/qr/preview (a static code's content, nothing stored), as a file. */
async function previewImage(format: 'png' | 'svg' | 'pdf', data: string, design: QrDesign, size: number | undefined): Promise<Blob> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (csrfToken !== null) headers['x-csrf-token'] = csrfToken;
  if (tabAccount !== null) headers['x-qrtrack-account'] = tabAccount;
  const q = size === undefined ? '' : format === 'pdf' ? `&mm=${size}` : `&size=${size}`;
  let res: Response;
  try {
    res = await fetch(`/v1/qr/preview?format=${format}${q}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ data, design }),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'The server cannot be reached. Check your connection and try again.', null, null);
  }
  if (!res.ok) {
    let message = `Request failed (${res.status})`;
    try {
      const body: unknown = await res.json();
      if (typeof body === 'object' && body !== null && 'error' in body) message = String((body as { error: unknown }).error);
    } catch {
      // not JSON
    }
    throw new ApiError(res.status, message, null, null);
  }
  return res.blob();
}

/** The session as this tab sees it (in the account it names). */
const readSession = () => call<SessionView>('GET', '/session', undefined, { quiet401: true }).then(remember);

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The account's own settings (GET/PATCH /v1/account). */
export interface AccountSettingsView {
  id: string;
  name: string;
  createdAt: string;
  scanRetentionDays: number | null;
}

export const api = {
  instance: () => call<InstanceView>('GET', '/instance'),
  session: readSession,
  signIn: async (email: string, password: string) => {
    const shown = tabAccount;
    const session = await call<SessionView>('POST', '/session', { email, password }, { quiet401: true });
    csrfToken = session.csrfToken;
    // Signed in again after the session ended: the tab goes on in the account it showed
    // (GET /session answers for the account this tab names), not the new session's first.
    if (shown !== null && shown !== session.account.id && session.accounts.some((a) => a.id === shown)) return readSession();
    return remember(session);
  },
  // Signing out of a session that already ended is no news: quiet.
  signOut: () => call<{ ok: boolean }>('DELETE', '/session', undefined, { quiet401: true }).finally(() => (csrfToken = null)),
  signOutEverywhere: () => call<{ ok: boolean }>('DELETE', '/sessions', undefined, { quiet401: true }).finally(() => (csrfToken = null)),
  switchAccount: (accountId: string) => call<SessionView>('PUT', '/session/account', { accountId }).then(remember),
  changePassword: (currentPassword: string, newPassword: string) =>
    call<{ ok: boolean }>('PUT', '/me/password', { currentPassword, newPassword }),

  checkSetup: (token: string) => call<{ ok: boolean }>('GET', `/setup/${token}`),
  setup: (body: { token: string; accountName: string; email: string; password: string; publicBaseUrl?: string }) =>
    call<SessionView>('POST', '/setup', body).then(remember),
  signUp: (body: { accountName: string; email: string; password: string }) => call<SessionView>('POST', '/signup', body).then(remember),
  invitePreview: (token: string) => call<InvitePreview>('GET', `/invites/${token}`),
  acceptInvite: (token: string, email: string, password: string) =>
    call<SessionView>('POST', `/invites/${token}/accept`, { email, password }, { quiet401: true }).then(remember),
  resetPreview: (token: string) => call<ResetPreview>('GET', `/password-resets/${token}`),
  resetPassword: (token: string, password: string) => call<{ ok: boolean }>('POST', `/password-resets/${token}`, { password }),

  account: () => call<{ account: AccountSettingsView }>('GET', '/account').then((r) => r.account),
  setScanRetention: (scanRetentionDays: number | null) =>
    call<{ account: AccountSettingsView }>('PATCH', '/account', { scanRetentionDays }).then((r) => r.account),
  members: () => call<{ members: MemberView[] }>('GET', '/account/members').then((r) => r.members),
  changeRole: (userId: string, role: Role) =>
    call<{ member: MemberView }>('PATCH', `/account/members/${userId}`, { role }).then((r) => r.member),
  removeMember: (userId: string) => call<{ ok: boolean }>('DELETE', `/account/members/${userId}`),
  resetLink: (userId: string) => call<LinkView>('POST', `/account/members/${userId}/reset-link`),
  invites: () => call<{ invites: InviteView[] }>('GET', '/account/invites').then((r) => r.invites),
  createInvite: (role: Role, email: string | null = null) => call<CreatedInvite>('POST', '/account/invites', { role, email }),
  revokeInvite: (id: string) => call<{ ok: boolean }>('DELETE', `/account/invites/${id}`),
  keys: () => call<{ keys: ApiKeyListItem[] }>('GET', '/account/keys').then((r) => r.keys),
  domains: () => call<{ domains: DomainView[] }>('GET', '/domains').then((r) => r.domains),
  addDomain: (hostname: string) => call<{ domain: DomainView }>('POST', '/domains', { hostname }).then((r) => r.domain),
  verifyDomain: (id: string) => call<{ domain: DomainView }>('POST', `/domains/${id}/verify`).then((r) => r.domain),
  updateDomain: (id: string, body: { isDefault?: boolean; fallbackUrl?: string | null; rootRedirect?: string | null }) =>
    call<{ domain: DomainView }>('PATCH', `/domains/${id}`, body).then((r) => r.domain),
  deleteDomain: (id: string) => call<{ ok: boolean }>('DELETE', `/domains/${id}`),
  webhooks: () => call<{ webhooks: WebhookView[] }>('GET', '/webhooks').then((r) => r.webhooks),
  createWebhook: (body: CreateWebhookRequest) => call<{ webhook: WebhookView; secret: string }>('POST', '/webhooks', body),
  updateWebhook: (id: string, body: UpdateWebhookRequest) =>
    call<{ webhook: WebhookView }>('PATCH', `/webhooks/${id}`, body).then((r) => r.webhook),
  deleteWebhook: (id: string) => call<{ ok: boolean }>('DELETE', `/webhooks/${id}`),
  rotateWebhookSecret: (id: string) => call<{ webhook: WebhookView; secret: string }>('POST', `/webhooks/${id}/rotate-secret`),
  testWebhook: (id: string) => call<{ ok: boolean }>('POST', `/webhooks/${id}/test`),
  webhookDeliveries: (id: string) =>
    call<{ deliveries: WebhookDeliveryView[]; nextCursor: string | null }>('GET', `/webhooks/${id}/deliveries?limit=50`),
  resendDelivery: (id: string, deliveryId: string) => call<{ ok: boolean }>('POST', `/webhooks/${id}/deliveries/${deliveryId}/resend`),
  changePublicAddress: (publicBaseUrl: string) =>
    call<{ publicAddress: PublicAddressView }>('PUT', '/instance/public-address', { publicBaseUrl }).then((r) => r.publicAddress),
  createKey: (name: string, scopes: Scope[], expiresAt: string | null = null) =>
    call<CreatedKey>('POST', '/account/keys', { name, scopes, expiresAt }),
  /** The successor, shown once; the old key keeps working for `graceSeconds` (the server's default: a day). */
  rotateKey: (id: string, graceSeconds?: number) => call<RotatedKey>('POST', `/account/keys/${id}/rotate`, { graceSeconds }),
  revokeKey: (id: string) => call<{ ok: boolean }>('DELETE', `/account/keys/${id}`),

  listCodes: (params: CodesFilter & { limit?: number; cursor?: string; include?: 'sparkline'; tz?: string } = {}) => {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') qs.set(k, String(v));
    const s = qs.toString();
    return call<QrList>('GET', `/qr${s ? `?${s}` : ''}`);
  },
  getCode: (id: string) => call<{ item: QrItem }>('GET', `/qr/${encodeURIComponent(id)}`).then((r) => r.item),
  createCode: (body: CreateQrRequest) => call<SavedQr>('POST', '/qr', body),
  updateCode: (id: string, body: UpdateQrRequest) => call<SavedQr>('PATCH', `/qr/${encodeURIComponent(id)}`, body),
  /** Every saved design: pages follow when large custom logos fill one (4 MiB a page; at most 200 designs). */
  listDesigns: async () => {
    const all: SavedDesign[] = [];
    let cursor: string | null = null;
    do {
      const page: { designs: SavedDesign[]; nextCursor: string | null } = await call(
        'GET',
        `/designs${cursor === null ? '' : `?cursor=${encodeURIComponent(cursor)}`}`,
      );
      all.push(...page.designs);
      cursor = page.nextCursor;
    } while (cursor !== null);
    return all;
  },
  createDesign: (name: string, design: QrDesign) =>
    call<{ design: SavedDesign }>('POST', '/designs', { name, design }).then((r) => r.design),
  deleteDesign: (id: string) => call<{ ok: boolean }>('DELETE', `/designs/${encodeURIComponent(id)}`),
  /** The server's own image of a code (exactly what image.png / image.svg give); a link, read with the session cookie. */
  codeImageUrl: (id: string, format: 'svg' | 'png', size?: number) =>
    linked(`/v1/qr/${encodeURIComponent(id)}/image.${format}${size === undefined ? '' : `?size=${size}`}`),
  /** The print-ready vector PDF, `widthMm` millimetres wide (the height follows the frame); a link. */
  codePdfUrl: (id: string, widthMm: number) => linked(`/v1/qr/${encodeURIComponent(id)}/image.pdf?size=${widthMm}`),
  /** Which rule, variant and destination a described visitor would get (nothing is recorded). */
  testRules: (id: string, visitor: VisitorTest) => call<RuleTestResult>('POST', `/qr/${encodeURIComponent(id)}/rules/test`, visitor),
  /** Pauses, resumes or deletes up to 200 codes in one request. */
  bulkCodes: (action: BulkAction, ids: string[]) => call<BulkResult>('POST', '/qr/bulk', { action, ids }),
  tags: () => call<{ tags: TagCount[] }>('GET', '/tags').then((r) => r.tags),
  /** A static code's image: its content encoded as is, nothing stored; `size` is pixels, or millimetres for a PDF. */
  staticImage: previewImage,
  /** Up to 1,000 codes in one request, all or nothing; a refusal names each broken item (`ApiError.raw`). */
  createBatch: (items: CreateQrRequest[]) => call<BatchCreated>('POST', '/qr/batch', { items }),
  /** The codes a filter selects as CSV or JSON, or their images as a ZIP, read with progress. */
  exportCodes: (
    what: { format: 'csv' | 'json' } | { format: 'zip'; images: 'png' | 'svg' },
    filter: ExportFilter,
    onBytes: (received: number, total: number | null) => void,
  ) => {
    const q = filterQuery(filter);
    const path =
      what.format === 'zip'
        ? `/v1/qr/export.zip?format=${what.images}${q ? `&${q}` : ''}`
        : `/v1/qr/export?format=${what.format}${q ? `&${q}` : ''}`;
    return download(path, onBytes);
  },
  /** Codes from a CSV file, all or nothing; a refusal names the first broken line (`line 12: url: …`). */
  importCodes: (csv: string, onSent: (sent: number, total: number) => void) => uploadCsv<{ created: number }>('/qr/import', csv, onSent),
  /**
   * A list thumbnail: a link, not a fetch, so an <img> loads it with the session cookie and the
   * browser caches it. `version` (the item's updatedAt) gives an edited design a new address.
   */
  codeThumbnailUrl: (id: string, version: string) => linked(`/v1/qr/${encodeURIComponent(id)}/image.svg?v=${encodeURIComponent(version)}`),
  codeStats: (id: string, days: number, tz: string) =>
    call<CodeStats>('GET', `/qr/${encodeURIComponent(id)}/stats?${statsQuery(days, tz)}`),
  recentScans: (id: string, since?: string) =>
    call<RecentScans>('GET', `/qr/${encodeURIComponent(id)}/recent${since ? `?since=${encodeURIComponent(since)}` : ''}`),
  accountStats: (days: number, tz: string, top = 10) => call<AccountStats>('GET', `/stats?${statsQuery(days, tz)}&top=${top}`),
  /** Links, not fetches: the browser downloads them with the session cookie. */
  codeStatsCsvUrl: (id: string, days: number, tz: string, part: 'daily' | 'breakdown') =>
    linked(`/v1/qr/${encodeURIComponent(id)}/stats.csv?${statsQuery(days, tz)}&part=${part}`),
  accountStatsCsvUrl: (days: number, tz: string, part: 'daily' | 'breakdown' | 'top') =>
    linked(`/v1/stats.csv?${statsQuery(days, tz)}&part=${part}`),
};
