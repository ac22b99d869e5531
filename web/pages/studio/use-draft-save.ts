// The state of saving the draft: one save at a time, the server's refusal kept for the form
// (its message, and the field it names), and each failed attempt moving the focus to what
// has to be fixed.
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api.ts';
import type { ServerFieldError } from './use-draft-checks.ts';

export interface DraftSave {
  busy: boolean;
  /** Why the last save failed, as the server (or the network) said it. */
  error: string | undefined;
  /** The last save was refused for the marked fields (the form's message stays while they block it). */
  refused: boolean;
  serverField: ServerFieldError | null;
  /** The draft changed: the field the server refused may be right now. */
  clearServerField(): void;
  /** A save attempt: refused when `blocked`, else `work` (the request and what follows it). */
  attempt(blocked: boolean, work: () => Promise<void>): Promise<void>;
}

export function useDraftSave(): DraftSave {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [refused, setRefused] = useState(false);
  const [serverField, setServerField] = useState<ServerFieldError | null>(null);
  /** Counts failed saves: each one moves the focus to what has to be fixed. */
  const [failures, setFailures] = useState(0);
  useEffect(() => {
    if (failures > 0) focusFirstProblem();
  }, [failures]);
  const attempt = async (blocked: boolean, work: () => Promise<void>) => {
    setError(undefined);
    setRefused(blocked);
    if (blocked) return void setFailures((n) => n + 1);
    setBusy(true);
    try {
      await work();
    } catch (err) {
      if (err instanceof ApiError && err.field) setServerField({ field: err.field, message: err.message });
      setError(err instanceof ApiError ? err.message : 'The code could not be saved.');
      setFailures((n) => n + 1);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, refused, serverField, clearServerField: () => setServerField(null), attempt };
}

/** After a failed save: the first marked field (its design group opened), else the form's message. */
function focusFirstProblem(): void {
  const field = document.querySelector<HTMLElement>('.studio__edit [aria-invalid="true"]');
  const details = field?.closest('details');
  if (details) details.open = true;
  (field ?? document.querySelector<HTMLElement>('.studio__edit .form-error'))?.focus();
}
