// What stops a draft from being saved, and where each problem is shown: under its field, in
// its design group, or (a content rule whose field is not on screen) in the form's message.
import { useMemo } from 'preact/hooks';
import { DEFAULT_DESIGN, type QrDesign } from '../../../src/domain/design/design-schema.ts';
import { TITLE_MAX } from '../../../src/domain/qr-items/qr-title.ts';
import { checkContent, type ContentCheck, FIELDS } from './content-model.ts';
import { type DesignErrors, rangeErrors } from './design-file.ts';
import type { Draft } from './draft-model.ts';
import { checkLifecycle, REDIRECT_KINDS } from './lifecycle-model.ts';
import { checkRules, fieldOfPath } from './rules-model.ts';
import type { loadRenderer } from './preview-panel.tsx';
import { isBlankLogo } from './logo-pixels.ts';
import { UNDECODABLE } from '../../../src/domain/design/undecodable-logo.ts';

/** The API's sentence for a blank logo, without its field (it shows under the field). */
const BLANK_LOGO = (() => {
  const m = UNDECODABLE('customLogoUrl').replace(/^customLogoUrl: /, '');
  return m.charAt(0).toUpperCase() + m.slice(1);
})();

/** The renderer's design check (the rules only drawing can tell), once its chunk has loaded. */
export type Checker = Awaited<ReturnType<typeof loadRenderer>>;

/** The field the server refused on the last save; it stays marked until the draft changes. */
export interface ServerFieldError {
  field: string;
  message: string;
}

export interface DraftChecks {
  /** The content's payload and errors, a refusal of a content field by the server among them. */
  content: ContentCheck;
  design: DesignErrors;
  designBlocked: boolean;
  /** The schedule, limits, password and rules: problems keyed by the form's field names (lifecycle-model.ts, rules-model.ts). */
  dynamic: Record<string, string>;
  title: string | undefined;
  /** Something stops the save. */
  blocked: boolean;
  /** After a refused save, while something still blocks it: what to fix (empty otherwise). */
  refusal: string;
}

/** The draft's checks; null while there is no draft yet. `refused`: the last save was refused. */
export function useDraftChecks(
  draft: Draft | null,
  checker: Checker | null,
  serverField: ServerFieldError | null,
  refused: boolean,
): DraftChecks | null {
  const check = useMemo(() => (draft ? checkContent(draft.content) : null), [draft?.content]);
  const design = useMemo(() => (draft ? designErrors(draft.design, checker, serverField) : {}), [draft?.design, checker, serverField]);
  const dynamic = useMemo(
    () => (draft ? dynamicErrors(draft, serverField) : {}),
    [draft?.lifecycle, draft?.password, draft?.rules, draft?.content.kind, serverField],
  );
  if (!draft || !check) return null;
  const title = titleError(draft.title);
  const designBlocked = Object.keys(design).length > 0;
  const marked = Boolean(title) || designBlocked || Object.keys(dynamic).length > 0;
  const blocked = marked || check.payload === null;
  const refusal = refused && blocked ? refusalMessage(draft, check, marked) : '';
  return { content: withServerField(check, serverField), design, designBlocked, dynamic, title, blocked, refusal };
}

function titleError(title: string): string | undefined {
  if (title.trim() === '') return 'Give the code a title';
  return [...title].length > TITLE_MAX ? `Must be at most ${TITLE_MAX} characters` : undefined;
}

export function designErrors(design: QrDesign, checker: Checker | null, serverField: ServerFieldError | null = null): DesignErrors {
  const errors = rangeErrors(design);
  const problem = checker?.checkDesign(design);
  if (problem) errors[problem.field as keyof QrDesign] ??= problem.message;
  // A raster logo the browser found blank (logo-pixels.ts): the API's own refusal of it.
  if (design.customLogoUrl !== null && isBlankLogo(design.customLogoUrl)) errors.customLogoUrl ??= BLANK_LOGO;
  if (serverField && serverField.field in DEFAULT_DESIGN) errors[serverField.field as keyof QrDesign] ??= serverField.message;
  return errors;
}

/** The lifecycle's and (for kinds that redirect) the rules' problems, with the server's refusal of one of them. */
function dynamicErrors(draft: Draft, serverField: ServerFieldError | null): Record<string, string> {
  const redirects = REDIRECT_KINDS.has(draft.content.kind);
  const errors = { ...checkLifecycle(draft.lifecycle, draft.password), ...(redirects ? checkRules(draft.rules) : {}) };
  if (serverField && isDynamicField(serverField.field)) {
    errors[fieldOfPath(serverField.field, draft.rules)] ??= serverField.message;
  }
  return errors;
}

const DYNAMIC_FIELDS = new Set([
  'activatesAt',
  'expiresAt',
  'maxScans',
  'scanCapBasis',
  'fallbackUrls',
  'forwardQuery',
  'utm',
  'password',
  'rules',
]);

function isDynamicField(field: string): boolean {
  return DYNAMIC_FIELDS.has(field.split(/[.[]/)[0] ?? '');
}

function withServerField(check: ContentCheck, serverField: ServerFieldError | null): ContentCheck {
  if (!serverField || serverField.field in DEFAULT_DESIGN || isDynamicField(serverField.field)) return check;
  return { ...check, errors: { ...check.errors, [serverField.field]: serverField.message } };
}

/** A content rule is named under its field; one whose field is not on screen is named here, so a save is never refused without a visible reason. */
function refusalMessage(draft: Draft, check: ContentCheck, otherFieldsMarked: boolean): string {
  const onScreen = new Set<string>(draft.content.raw !== null ? ['payload'] : FIELDS[draft.content.kind].map((d) => d.name));
  const offScreen = Object.entries(check.errors)
    .filter(([f]) => !onScreen.has(f))
    .map(([, m]) => m);
  const marked = otherFieldsMarked || Object.keys(check.errors).some((f) => onScreen.has(f));
  return [marked ? 'Fix the marked fields first.' : '', offScreen.length ? `The content cannot be saved: ${offScreen.join('; ')}.` : '']
    .filter(Boolean)
    .join(' ');
}
