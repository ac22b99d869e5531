// The studio's draft as data: a blank one (or one from a built-in design), one from a stored
// code, the request that saves it, and the snapshot that tells whether it has changed.
import { DEFAULT_DESIGN, type QrDesign } from '../../../src/domain/design/design-schema.ts';
import type { CreateQrRequest, QrItem, UpdateQrRequest } from '../../api.ts';
import { type Content, contentFromPayload, emptyFields, typedFields } from './content-model.ts';
import { BUILT_IN_DESIGNS } from './design-file.ts';
import {
  emptyLifecycle,
  type LifecycleDraft,
  type LifecycleFields,
  lifecycleFields,
  lifecycleOf,
  NO_PASSWORD_CHANGE,
  type PasswordDraft,
  REDIRECT_KINDS,
} from './lifecycle-model.ts';
import { type RuleDraft, ruleBodies, rulesOf } from './rules-model.ts';

/** The studio's form: what a new or edited code will be saved as. */
export interface Draft {
  title: string;
  /** What a landing page (Wi-Fi, contact, text) shows visitors; '' for a neutral heading by kind. */
  heading: string;
  content: Content;
  design: QrDesign;
  lifecycle: LifecycleDraft;
  password: PasswordDraft;
  rules: RuleDraft[];
  /** Kept as the API sorts them once saved; a new code's are sent only when there are some. */
  tags: string[];
}

/** The fields of a save request that are not content, design or title. */
type DynamicRequest = Pick<UpdateQrRequest, keyof LifecycleFields | 'rules' | 'password'>;

/** A new code's draft: a URL code, in the built-in design the address names (?design=builtin:N), else the default. */
export function newDraft(): Draft {
  const params = new URLSearchParams(location.search);
  const builtIn = Number(params.get('design')?.replace(/^builtin:/, '') ?? NaN);
  const design = BUILT_IN_DESIGNS[builtIn]?.design ?? DEFAULT_DESIGN;
  return {
    title: '',
    heading: '',
    content: { kind: 'url', fields: emptyFields(), raw: null },
    design: { ...design },
    lifecycle: emptyLifecycle(),
    password: NO_PASSWORD_CHANGE,
    rules: [],
    tags: [],
  };
}

export function draftOf(item: QrItem): Draft {
  return {
    title: item.title,
    heading: item.heading ?? '',
    content: contentFromPayload(item.contentType, item.payload),
    design: item.design,
    lifecycle: lifecycleOf(item),
    password: NO_PASSWORD_CHANGE,
    rules: rulesOf(item.rules),
    tags: item.tags,
  };
}

/**
 * The request that saves `draft`. A new code (`stored` absent) sends the lifecycle fields that
 * differ from a new code's defaults; an edit sends those that differ from the stored code, so
 * a save of the title alone sends no rules. Rules and the query string apply to redirecting kinds only.
 */
export function requestOf(draft: Draft, stored?: Draft): CreateQrRequest & UpdateQrRequest {
  const request: CreateQrRequest & DynamicRequest & Pick<UpdateQrRequest, 'tags' | 'heading'> = {
    title: draft.title.trim(),
    contentType: draft.content.kind,
    ...(draft.content.raw !== null ? { payload: draft.content.raw } : typedFields(draft.content)),
    design: draft.design,
    ...changedFields(draft, stored ?? newDraft(), stored !== undefined),
    ...(JSON.stringify(draft.tags) !== JSON.stringify(stored?.tags ?? []) ? { tags: draft.tags } : {}),
    // '' clears it on an edit; a new code sends one only when there is one.
    ...(draft.heading.trim() !== (stored?.heading ?? '').trim()
      ? { heading: draft.heading.trim() === '' ? null : draft.heading.trim() }
      : {}),
  };
  return request;
}

function changedFields(draft: Draft, base: Draft, editing: boolean): DynamicRequest {
  const now = dynamicRequest(draft);
  const before = dynamicRequest({ ...base, content: draft.content });
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(now)) {
    if (JSON.stringify(v) !== JSON.stringify(before[k as keyof DynamicRequest])) out[k] = cleared(v, editing);
  }
  if (draft.password.value !== '') out.password = draft.password.value;
  else if (draft.password.remove && editing) out.password = null;
  return out as DynamicRequest;
}

/** An emptied object is sent as null on an edit: null clears, as for every field. */
function cleared(v: unknown, editing: boolean): unknown {
  const empty = typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
  return empty && editing ? null : v;
}

function dynamicRequest(d: Draft): DynamicRequest {
  const { forwardQuery, utm, ...lifecycle } = lifecycleFields(d.lifecycle);
  return REDIRECT_KINDS.has(d.content.kind) ? { ...lifecycle, forwardQuery, utm, rules: ruleBodies(d.rules) } : lifecycle;
}

/** What "unsaved changes" compares: equal snapshots, equal drafts. */
export function snapshot(d: Draft): string {
  const rules = d.rules.map(({ uid: _r, conditions, ...r }) => ({ ...r, conditions: conditions.map(({ uid: _c, ...c }) => c) }));
  return JSON.stringify([
    d.title,
    d.content.kind,
    d.content.raw ?? typedFields(d.content),
    d.design,
    d.lifecycle,
    d.password,
    rules,
    d.tags,
  ]);
}

/** A stashed draft made whole (one kept by an older version of the app has no lifecycle or rules); its rules get ids of this page. */
export function completeDraft(d: Pick<Draft, 'title' | 'content' | 'design'> & Partial<Draft>): Draft {
  return {
    ...d,
    lifecycle: { ...emptyLifecycle(), ...d.lifecycle },
    password: { ...NO_PASSWORD_CHANGE, remove: d.password?.remove === true },
    tags: d.tags ?? [],
    heading: d.heading ?? '',
    rules: (d.rules ?? []).map((r) => ({ ...r, uid: freshUid(), conditions: r.conditions.map((c) => ({ ...c, uid: freshUid() })) })),
  };
}

let restored = 0;
const freshUid = () => `s${++restored}`;
