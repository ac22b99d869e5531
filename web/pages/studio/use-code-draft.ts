// The draft and what it is compared with for "unsaved changes": a blank new code, or a stored
// code read by id (and replaced by what the server stores after each save).
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, api, type QrItem } from '../../api.ts';
import { type Draft, draftOf, newDraft, snapshot } from './draft-model.ts';

export interface CodeDraft {
  /** The stored code; null for a new one, or while it is read. */
  item: QrItem | null;
  /** null while a stored code is read. */
  draft: Draft | null;
  loadError: string | null;
  dirty: boolean;
  setDraft(draft: Draft): void;
  /** The code as the server stores it now: the draft starts again from it. */
  stored(item: QrItem): void;
  /** The code changed outside the draft (paused, resumed): the draft and its edits stay. */
  changed(item: QrItem): void;
  /** `draft` is what the server stores now (a create, before its edit page opens). */
  markSaved(draft: Draft): void;
}

export function useCodeDraft(id: string | undefined): CodeDraft {
  const [item, setItem] = useState<QrItem | null>(null);
  const [draft, setDraft] = useState<Draft | null>(id === undefined ? newDraft() : null);
  const [saved, setSaved] = useState<string | null>(() => (id === undefined ? snapshot(newDraft()) : null));
  const [loadError, setLoadError] = useState<string | null>(null);
  const stored = (it: QrItem) => {
    const d = draftOf(it);
    setItem(it);
    setDraft(d);
    setSaved(snapshot(d));
  };
  useEffect(() => {
    if (id === undefined) return;
    // An address whose id is not even a UUID (400 on `id`) names no code either, as on the stats page.
    api
      .getCode(id)
      .then(stored, (err: unknown) =>
        setLoadError(
          err instanceof ApiError && (err.status === 404 || (err.status === 400 && err.field === 'id'))
            ? 'There is no such code in this account.'
            : 'The code could not be loaded.',
        ),
      );
  }, [id]);
  // A snapshot holds the logo's data URL (up to ~700 kB): made once per draft, not per render.
  const current = useMemo(() => (draft ? snapshot(draft) : null), [draft]);
  const dirty = current !== null && saved !== null && current !== saved;
  return { item, draft, loadError, dirty, setDraft, stored, changed: setItem, markSaved: (d) => setSaved(snapshot(d)) };
}
