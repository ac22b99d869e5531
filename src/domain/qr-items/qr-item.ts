// QR items: what a create or update request means, independent of HTTP and storage.
// The request body arrives shape-checked; these functions apply the product rules
// (defaults, payload assembly, design merging, PATCH semantics) and return plain values.
import { type DesignPatch, DESIGN_FIELDS, type QrDesign, checkFrameText, normalizeDesignPatch, resolveDesign } from '../design/design.ts';
import type { ParsedLogos } from '../design/request-logos.ts';
import { ValidationError } from '../errors.ts';
import {
  type ContentType,
  type TypedFields,
  TYPED_FIELDS,
  assemblePayload,
  foreignFieldWarnings,
  validatePayload,
} from '../payload/index.ts';
import { type LinkAddresses, isOwnShortLink, shortUrlOf } from './short-code.ts';
import { checkTitle } from './qr-title.ts';
import { checkHeading } from './public-heading.ts';
import { normalizeTags } from './tags.ts';
import { type DynamicRequest, planDynamic } from '../dynamic/plan-dynamic.ts';
import { type DynamicSettings, NO_DYNAMIC } from '../dynamic/dynamic-settings.ts';
import { type ItemStatus, statusOf } from '../dynamic/lifecycle.ts';

/** A stored QR item, as the data layer hands it up. */
export interface QrItemRecord extends DynamicSettings {
  /** Scans admitted under the cap so far. */
  capCount: number;
  hasPassword: boolean;
  id: string;
  accountId: string;
  code: string;
  title: string;
  /** What its landing page shows visitors; null: a neutral heading by kind. */
  heading: string | null;
  contentType: ContentType;
  payload: string;
  fields: TypedFields;
  design: QrDesign;
  active: boolean;
  scanCount: number;
  createdAt: string;
  updatedAt: string;
  tags: string[];
  /** The custom domain its short link lives on; null: the instance's address. */
  domainId: string | null;
}

/** The QrItem of the interface, as clients see it. */
export interface QrItemView extends DynamicSettings {
  /** Computed when read: nothing has to flip at midnight. */
  status: ItemStatus;
  capCount: number;
  hasPassword: boolean;
  id: string;
  title: string;
  heading: string | null;
  code: string;
  contentType: ContentType;
  payload: string;
  active: boolean;
  design: QrDesign;
  shortUrl: string;
  /** The hostname of the account's domain its short link lives on; null: the instance's address. */
  domain: string | null;
  scanCount: number;
  createdAt: string;
  updatedAt: string;
  tags: string[];
}

/** Body of create and update after schema validation: typed fields, flat design fields and `design` side by side. */
export type QrItemRequest = TypedFields &
  DesignPatch &
  DynamicRequest & {
    title?: string;
    heading?: string | null;
    tracking?: boolean;
    contentType?: ContentType;
    payload?: string;
    design?: DesignPatch;
    active?: boolean;
    tags?: string[];
    /** A verified domain of the account (hostname); null: the instance's address. */
    domain?: string | null;
  };

/** What to store for a new item (id, code and times are the repository's). */
export interface NewQrItemContent {
  title: string;
  /** Absent or null: none. */
  heading?: string | null;
  contentType: ContentType;
  payload: string;
  fields: TypedFields;
  design: QrDesign;
  /** Normalised (tags.ts); none when absent. */
  tags?: string[];
  /** Lifecycle and routing; the defaults when absent. */
  dynamic?: DynamicSettings;
  /** argon2id of the code's password (hashed before planning: hashing is asynchronous). */
  passwordHash?: string | null;
  /** The domain its short link lives on, resolved by the caller (a lookup); null or absent: the instance's address. */
  domainId?: string | null;
}

export type QrItemChanges = Partial<NewQrItemContent> & {
  active?: boolean;
  /** The cap or what it counts changed: its count starts again from the scans so far. */
  recountCap?: boolean;
};

/** The request's password, hashed ahead by the caller: undefined when not given, null to remove it. */
export interface PlanSecrets {
  passwordHash?: string | null;
}

export function toView(item: QrItemRecord, addresses: LinkAddresses, now = Date.now()): QrItemView {
  return {
    status: statusOf(item, now),
    id: item.id,
    title: item.title,
    heading: item.heading,
    code: item.code,
    contentType: item.contentType,
    payload: item.payload,
    active: item.active,
    design: item.design,
    shortUrl: shortUrlOf(item, addresses),
    domain: addresses.hostnameOf(item.domainId),
    scanCount: item.scanCount,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
    tags: item.tags,
    activatesAt: item.activatesAt,
    expiresAt: item.expiresAt,
    maxScans: item.maxScans,
    scanCapBasis: item.scanCapBasis,
    capCount: item.capCount,
    fallbackUrls: item.fallbackUrls,
    rules: item.rules,
    forwardQuery: item.forwardQuery,
    utm: item.utm,
    hasPassword: item.hasPassword,
  };
}

/** What the rules need to know of the service itself. */
export interface PlanContext {
  /** Short links live under `${publicBaseUrl}/r/`; an item may not redirect to one. */
  publicBaseUrl: string;
}

/** `logos`: the request's custom logos, parsed ahead (design/request-logos.ts). */
export function planCreate(req: QrItemRequest, ctx: PlanContext, logos: ParsedLogos, secrets: PlanSecrets = {}): NewQrItemContent {
  rejectTrackingOff(req);
  if (req.title === undefined) throw new ValidationError('title: is required');
  const contentType = req.contentType ?? 'url';
  const fields = typedFieldsOf(req);
  return {
    title: checkTitle(req.title),
    heading: checkHeading(req.heading ?? null),
    contentType,
    payload: contentFor(contentType, req.payload, fields, ctx),
    fields,
    design: resolveDesign(undefined, designPatchOf(req, logos)),
    tags: normalizeTags(req.tags ?? []),
    dynamic: planDynamic(req, NO_DYNAMIC, contentType, ctx) ?? NO_DYNAMIC,
    passwordHash: secrets.passwordHash ?? null,
  };
}

/** PATCH is partial: only what is given changes; the design merges into the stored one. */
export function planUpdate(
  current: QrItemRecord,
  req: QrItemRequest,
  ctx: PlanContext,
  logos: ParsedLogos,
  secrets: PlanSecrets = {},
): QrItemChanges {
  rejectTrackingOff(req);
  const changes: QrItemChanges = {};
  if (req.title !== undefined) changes.title = checkTitle(req.title);
  if (req.heading !== undefined) changes.heading = checkHeading(req.heading);
  if (req.active !== undefined) changes.active = req.active;
  // PATCH replaces the whole set of tags; an empty list removes them all.
  if (req.tags !== undefined) changes.tags = normalizeTags(req.tags);

  const given = typedFieldsOf(req);
  const kindChanged = req.contentType !== undefined && req.contentType !== current.contentType;
  const contentType = req.contentType ?? current.contentType;
  if (kindChanged || req.payload !== undefined || Object.keys(given).length > 0) {
    if (kindChanged && req.payload === undefined && Object.keys(given).length === 0) {
      throw new ValidationError(`contentType: changing to ${contentType} needs payload or the ${contentType} fields`);
    }
    // A new kind starts from its own fields; the same kind keeps the untouched ones.
    const fields = kindChanged ? given : { ...current.fields, ...given };
    changes.contentType = contentType;
    changes.fields = fields;
    changes.payload = contentFor(contentType, req.payload, fields, ctx);
  }

  const patch = designPatchOf(req, logos);
  if (Object.keys(patch).length > 0) changes.design = resolveDesign(current.design, patch);

  const dynamic = planDynamic(req, current, contentType, ctx);
  if (dynamic !== undefined) {
    changes.dynamic = dynamic;
    changes.recountCap = dynamic.maxScans !== current.maxScans || dynamic.scanCapBasis !== current.scanCapBasis;
  }
  if (secrets.passwordHash !== undefined) changes.passwordHash = secrets.passwordHash;
  return changes;
}

/** Warnings about the request itself (beside the design's): fields that had no effect. */
export function requestWarnings(req: QrItemRequest, contentType: ContentType): string[] {
  return foreignFieldWarnings(contentType, typedFieldsOf(req));
}

function rejectTrackingOff(req: QrItemRequest): void {
  if (req.tracking === false) throw new ValidationError('tracking: must be true; every QR item is tracked');
}

function contentFor(contentType: ContentType, payload: string | undefined, fields: TypedFields, ctx: PlanContext): string {
  const content = payload !== undefined ? validatePayload(contentType, payload) : assemblePayload(contentType, fields);
  // A redirect to a short link of ours loops (or chains) through the tracker: one visit, many scans.
  if (contentType === 'url' && isOwnShortLink(content, ctx.publicBaseUrl)) {
    const field = payload !== undefined ? 'payload' : 'url';
    throw new ValidationError(
      `${field}: must not point at a short link of this service (${ctx.publicBaseUrl}/r/…); it would redirect to itself`,
    );
  }
  return content;
}

function typedFieldsOf(req: QrItemRequest): TypedFields {
  const out: Record<string, string> = {};
  for (const f of TYPED_FIELDS) {
    const v = req[f];
    if (v !== undefined) out[f] = v;
  }
  return out as TypedFields;
}

/** Flat and nested design merged; for the same option the nested `design` value wins. */
export function designPatchOf(req: DesignPatch & { design?: DesignPatch }, logos: ParsedLogos): DesignPatch {
  // Checked where it was given, so the error names the field the client sent.
  if (req.design?.frameText !== undefined) checkFrameText('design.frameText', req.design.frameText);
  const flat: Record<string, unknown> = {};
  for (const f of DESIGN_FIELDS) if (req[f] !== undefined) flat[f] = req[f];
  const merged = { ...(flat as DesignPatch), ...stripUndefined(req.design ?? {}) };
  return normalizeDesignPatch(merged, logos);
}

function stripUndefined(o: DesignPatch): DesignPatch {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as DesignPatch;
}
