// Tags for the selected codes at once: tags to add to every one, tags to take off every one
// that has them. Each code is saved with its new list (PATCH /v1/qr/{id}, a few at a time),
// with progress; a code that cannot take more tags is named, the others are still changed.
import { useEffect, useRef, useState } from 'preact/hooks';
import { TAGS_PER_ITEM } from '../../../src/domain/qr-items/tags.ts';
import { ApiError, type QrItem, type TagCount, api } from '../../api.ts';
import { TagEditor } from '../../components/tag-editor.tsx';

/** Requests in flight at once: enough to be quick, few enough to leave the server to others. */
const AT_ONCE = 4;

export interface TagChangeResult {
  changed: QrItem[];
  failed: Array<{ title: string; error: string }>;
}

export function TagDialog({
  codes,
  known,
  onDone,
  onClose,
}: {
  codes: QrItem[];
  known: TagCount[];
  onDone: (result: TagChangeResult) => void;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [add, setAdd] = useState<string[]>([]);
  const [remove, setRemove] = useState<Set<string>>(new Set());
  const [progress, setProgress] = useState<number | null>(null);
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);
  const present = [...new Set(codes.flatMap((c) => c.tags))].sort();
  const n = codes.length;

  const apply = async () => {
    const jobs = codes
      .map((c) => ({ item: c, tags: [...new Set([...c.tags.filter((t) => !remove.has(t)), ...add])] }))
      .filter(({ item, tags }) => tags.length !== item.tags.length || tags.some((t) => !item.tags.includes(t)));
    const result: TagChangeResult = { changed: [], failed: [] };
    let done = 0;
    setProgress(0);
    const next = async (): Promise<void> => {
      const job = jobs.shift();
      if (!job) return;
      try {
        if (job.tags.length > TAGS_PER_ITEM)
          throw new ApiError(400, `It would have ${job.tags.length} tags; a code holds ${TAGS_PER_ITEM} at most`, 'tags', null);
        const out = await api.updateCode(job.item.id, { tags: job.tags });
        result.changed.push(out.item);
      } catch (err) {
        result.failed.push({ title: job.item.title, error: err instanceof ApiError ? err.message : 'Could not be saved' });
      }
      setProgress(++done);
      return next();
    };
    const total = jobs.length;
    await Promise.all(Array.from({ length: Math.min(AT_ONCE, total) }, next));
    onDone(result);
    dialog.current?.close();
  };
  const working = progress !== null;
  const nothing = add.length === 0 && remove.size === 0;
  return (
    <dialog ref={dialog} class="dialog tag-dialog" aria-labelledby="tag-dialog-h" onClose={onClose}>
      <h2 id="tag-dialog-h">Tags of {n === 1 ? `“${codes[0]?.title}”` : `${n} codes`}</h2>
      <TagEditor
        id="bulk-tags"
        label="Add these tags"
        hint="Added to every selected code"
        tags={add}
        suggestions={known}
        onChange={setAdd}
      />
      {present.length > 0 ? (
        <fieldset class="tag-dialog__remove">
          <legend>Take off</legend>
          {present.map((t) => (
            <label key={t} class="check">
              <input
                type="checkbox"
                checked={remove.has(t)}
                onChange={(e) => {
                  const next = new Set(remove);
                  if (e.currentTarget.checked) next.add(t);
                  else next.delete(t);
                  setRemove(next);
                }}
              />
              {t}{' '}
              <span class="muted small">
                ({codes.filter((c) => c.tags.includes(t)).length} of {n})
              </span>
            </label>
          ))}
        </fieldset>
      ) : null}
      {working ? (
        <p role="status">
          <progress max={n} value={progress} /> Saving tags: {progress} of {n}…
        </p>
      ) : null}
      <div class="dialog__actions">
        <button type="button" class="btn btn--secondary" disabled={working} onClick={() => dialog.current?.close()}>
          Cancel
        </button>
        <button
          type="button"
          class="btn btn--primary"
          disabled={working || nothing}
          aria-busy={working ? 'true' : undefined}
          onClick={() => void apply()}
        >
          {n === 1 ? 'Save tags' : `Save tags of ${n} codes`}
        </button>
      </div>
    </dialog>
  );
}
