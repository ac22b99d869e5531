// Pause, resume and delete one code where it is shown on its own (its edit page and its
// dashboard), as the codes list does them: through POST /v1/qr/bulk, deleting only once asked.
import { useState } from 'preact/hooks';
import { ApiError, type QrItem, api } from '../api.ts';
import { statusAt } from '../item-lifecycle.ts';
import { navigate } from '../router.ts';
import { announce } from './announce.ts';
import { DeleteDialog } from './delete-dialog.tsx';

export function CodeActions({ item, onChange }: { item: QrItem; onChange: (item: QrItem) => void }) {
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const toggle = async () => {
    const action = item.active ? 'pause' : 'resume';
    setBusy(true);
    setError(null);
    try {
      const r = await api.bulkCodes(action, [item.id]);
      if (r.done.length === 0) throw new ApiError(404, 'This code was deleted meanwhile.', null, null);
      const next = { ...item, active: action === 'resume' };
      const changed = { ...next, status: statusAt(next, Date.now()) };
      onChange(changed);
      announce(action === 'pause' ? `Paused “${item.title}”: its short link answers that it is paused.` : `Resumed “${item.title}”.`);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'That did not work. Try again.');
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    try {
      await api.bulkCodes('delete', [item.id]);
      announce(`Deleted “${item.title}”.`);
      navigate('/codes', { force: true });
    } catch (err) {
      setDeleting(false);
      setError(err instanceof ApiError ? err.message : 'That did not work. Try again.');
    }
  };
  return (
    <>
      <button
        type="button"
        class="btn btn--secondary"
        id="code-toggle-active"
        disabled={busy}
        aria-busy={busy ? 'true' : undefined}
        onClick={() => void toggle()}
      >
        {item.active ? 'Pause' : 'Resume'}
      </button>
      <button type="button" class="btn btn--secondary btn--danger-text" id="code-delete" onClick={() => setDeleting(true)}>
        Delete…
      </button>
      {error ? (
        <p class="form-error code-actions__error" role="alert">
          {error}
        </p>
      ) : null}
      {deleting ? <DeleteDialog titles={[item.title]} onConfirm={remove} onClose={() => setDeleting(false)} /> : null}
    </>
  );
}
