// The studio's draft, end to end: loaded or blank, edited, checked, saved or created, with
// what the page shows about it (dirty, the save result, edits kept from an ended session).
import { useEffect, useState } from 'preact/hooks';
import { api, type QrItem, type SessionView } from '../../api.ts';
import { announce } from '../../components/announce.ts';
import { type Draft, draftOf, requestOf } from './draft-model.ts';
import type { StashedDraft } from './draft-stash.ts';
import { loadRendererSoon } from './preview-panel.tsx';
import { useCodeDraft } from './use-code-draft.ts';
import { type Checker, type DraftChecks, useDraftChecks } from './use-draft-checks.ts';
import { useDraftSave } from './use-draft-save.ts';
import { useDraftStash } from './use-draft-stash.ts';
import { type ErrorVisibility, useErrorVisibility } from './use-error-visibility.ts';
import { openCreatedCode, savedMessage, useSaveResult } from './use-save-result.ts';
import { useUnsavedGuard } from './use-unsaved-guard.ts';

export interface StudioDraft {
  item: QrItem | null;
  loadError: string | null;
  dirty: boolean;
  busy: boolean;
  /** The last save's warnings; null before any save. */
  warnings: string[] | null;
  /** Edits kept when the session ended on this page, offered back now that the user is in again. */
  stashed: StashedDraft | null;
  restore(keep: boolean): void;
  /** The stored code changed outside the draft (paused or resumed here): edits in progress stay. */
  changed(item: QrItem): void;
  /** null until there is a draft (a stored code is being read). */
  form: DraftForm | null;
}

export interface DraftForm {
  draft: Draft;
  checks: DraftChecks;
  visibility: ErrorVisibility;
  /** Above the form: why the last save failed, or what a refused save still waits for. */
  message: string | undefined;
  update(patch: Partial<Draft>): void;
  save(): Promise<void>;
}

export function useStudioDraft(id: string | undefined, session: SessionView | null | undefined): StudioDraft {
  const checker = useRendererCheck();
  const code = useCodeDraft(id);
  const { item, draft, dirty } = code;
  const visibility = useErrorVisibility();
  const stash = useDraftStash(id === undefined ? '/codes/new' : `/codes/${id}/edit`, session, draft, dirty);
  useUnsavedGuard(dirty);
  const [warnings, setWarnings] = useSaveResult(item);
  const saving = useDraftSave();
  const checks = useDraftChecks(draft, checker, saving.serverField, saving.refused);

  const restore = (keep: boolean) => {
    if (keep && stash.stashed) {
      code.setDraft(stash.stashed.draft);
      visibility.reset();
    }
    stash.drop();
  };
  const save = (d: Draft, blocked: boolean) => {
    visibility.submit();
    return saving.attempt(blocked, async () => {
      const out = item ? await api.updateCode(item.id, requestOf(d, draftOf(item))) : await api.createCode(requestOf(d));
      // What was saved supersedes any edits still kept from an ended session.
      stash.drop();
      if (!item) {
        code.markSaved(d); // not dirty any more: the route change must not ask
        return openCreatedCode(out.item.id, out.warnings);
      }
      code.stored(out.item);
      setWarnings(out.warnings);
      // The focus stays on the save button the user pressed; the result is said aloud.
      announce(savedMessage('Saved', out.warnings));
      visibility.reset();
    });
  };
  const form: DraftForm | null =
    draft && checks
      ? {
          draft,
          checks,
          visibility,
          message: saving.error ?? (checks.refusal || undefined),
          update: (patch) => {
            code.setDraft({ ...draft, ...patch });
            saving.clearServerField();
          },
          save: () => save(draft, checks.blocked),
        }
      : null;
  return {
    item,
    loadError: code.loadError,
    dirty,
    busy: saving.busy,
    warnings,
    stashed: stash.stashed,
    restore,
    changed: code.changed,
    form,
  };
}

/**
 * The renderer's design check, from when its chunk has loaded (the studio starts it on mount, or
 * after the first scan check when the server drew the first preview: first-paint.ts).
 */
function useRendererCheck(): Checker | null {
  const [checker, setChecker] = useState<Checker | null>(null);
  useEffect(() => void loadRendererSoon().then(setChecker), []);
  return checker;
}
