// Asks before creating (or saving) a code whose design the app's own scan check could not read:
// the API would store it (with its warnings), and it would be printed. Going back is the default.
import { useEffect, useRef } from 'preact/hooks';

export function WontScanDialog({
  creating,
  wrongText,
  warnings,
  onConfirm,
  onClose,
}: {
  creating: boolean;
  /** The check read something other than the short link (rather than nothing). */
  wrongText: boolean;
  warnings: number;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);
  const verb = creating ? 'Create' : 'Save';
  return (
    <dialog ref={dialog} class="dialog" id="wont-scan" aria-labelledby="wont-scan-h" aria-describedby="wont-scan-what" onClose={onClose}>
      <h2 id="wont-scan-h">{verb} anyway?</h2>
      <div id="wont-scan-what">
        <p>
          {wrongText
            ? 'At phone size this design reads as something other than its short link.'
            : 'At phone size this design could not be read at all.'}{' '}
          Printed, it will probably not scan.
        </p>
        <p>
          {warnings > 0 ? `The preview lists ${warnings === 1 ? 'what to change' : `${warnings} things to change`}. ` : ''}Raise the
          contrast, use a darker code on a lighter background, make the logo smaller or raise the error correction.
        </p>
      </div>
      <div class="dialog__actions">
        <button type="button" class="btn btn--secondary" onClick={() => dialog.current?.close()} autoFocus>
          Go back and fix it
        </button>
        <button
          type="button"
          class="btn btn--danger"
          onClick={() => {
            dialog.current?.close();
            onConfirm();
          }}
        >
          {verb} anyway
        </button>
      </div>
    </dialog>
  );
}
