// The studio's draft as data: a blank one (or one from a built-in design), one from a stored
// code, the request that saves it, and the snapshot that tells whether it has changed.
import { DEFAULT_DESIGN, type QrDesign } from '../../../src/domain/design/design-schema.ts';
import type { CreateQrRequest, QrItem } from '../../api.ts';
import { type Content, contentFromPayload, emptyFields, typedFields } from './content-model.ts';
import { BUILT_IN_DESIGNS } from './design-file.ts';

/** The studio's form: what a new or edited code will be saved as. */
export interface Draft {
  title: string;
  content: Content;
  design: QrDesign;
}

/** A new code's draft: a URL code, in the built-in design the address names (?design=builtin:N), else the default. */
export function newDraft(): Draft {
  const params = new URLSearchParams(location.search);
  const builtIn = Number(params.get('design')?.replace(/^builtin:/, '') ?? NaN);
  const design = BUILT_IN_DESIGNS[builtIn]?.design ?? DEFAULT_DESIGN;
  return { title: '', content: { kind: 'url', fields: emptyFields(), raw: null }, design: { ...design } };
}

export function draftOf(item: QrItem): Draft {
  return { title: item.title, content: contentFromPayload(item.contentType, item.payload), design: item.design };
}

export function requestOf(draft: Draft): CreateQrRequest {
  return {
    title: draft.title.trim(),
    contentType: draft.content.kind,
    ...(draft.content.raw !== null ? { payload: draft.content.raw } : typedFields(draft.content)),
    design: draft.design,
  };
}

/** What "unsaved changes" compares: equal snapshots, equal drafts. */
export function snapshot(d: Draft): string {
  return JSON.stringify([d.title, d.content.kind, d.content.raw ?? typedFields(d.content), d.design]);
}
