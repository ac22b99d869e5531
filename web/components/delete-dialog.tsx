// Asks before deleting one or many codes, and says plainly what it means: the printed codes
// stop working for good (the short link answers 410 Gone forever; the code is never reused).
import { useEffect, useRef, useState } from 'preact/hooks';

export function DeleteDialog({ titles, onConfirm, onClose }: { titles: string[]; onConfirm: () => Promise<void>; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);
  const n = titles.length;
  const what = n === 1 ? `“${titles[0]}”` : `${n} codes`;
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
    }
  };
  return (
    <dialog ref={dialog} class="dialog" aria-labelledby="delete-title" aria-describedby="delete-what" onClose={onClose}>
      <h2 id="delete-title">Delete {what}?</h2>
      <div id="delete-what">
        <p>
          {n === 1 ? 'Its short link' : 'Their short links'} will answer <strong>410 Gone</strong> forever: every printed or shared copy of{' '}
          {n === 1 ? 'this QR code' : 'these QR codes'} stops working, and the {n === 1 ? 'code is' : 'codes are'} never given out again.
        </p>
        <p>This cannot be undone. To stop scans for a while instead, pause {n === 1 ? 'it' : 'them'}.</p>
        {n > 1 ? (
          <ul class="dialog__list">
            {titles.slice(0, 5).map((t, i) => (
              <li key={i}>{t}</li>
            ))}
            {n > 5 ? <li class="muted">and {n - 5} more</li> : null}
          </ul>
        ) : null}
      </div>
      <div class="dialog__actions">
        <button type="button" class="btn btn--secondary" onClick={() => dialog.current?.close()} autoFocus>
          Cancel
        </button>
        <button type="button" class="btn btn--danger" disabled={busy} aria-busy={busy ? 'true' : undefined} onClick={confirm}>
          {n === 1 ? 'Delete for good' : `Delete ${n} codes for good`}
        </button>
      </div>
    </dialog>
  );
}
