// What can be done to the selected codes at once. Shown only while some are selected.
// The count and "Clear selection" share a line, so on a phone the bar (which sticks to the
// top of the window) stays two rows high.
export function BulkBar({ count, busy, onAction, onClear }: { count: number; busy: boolean; onAction: (a: 'pause' | 'resume' | 'delete') => void; onClear: () => void }) {
  if (count === 0) return null;
  return (
    <div class="bulk-bar" role="region" aria-label="Selected codes">
      <div class="bulk-bar__head">
        <span class="bulk-bar__count">{count === 1 ? '1 code selected' : `${count} codes selected`}</span>
        <button type="button" class="btn btn--link bulk-bar__clear" onClick={onClear}>
          Clear selection
        </button>
      </div>
      <div class="bulk-bar__actions">
        <button type="button" class="btn btn--secondary" disabled={busy} onClick={() => onAction('pause')}>
          Pause
        </button>
        <button type="button" class="btn btn--secondary" disabled={busy} onClick={() => onAction('resume')}>
          Resume
        </button>
        <button type="button" class="btn btn--danger" disabled={busy} onClick={() => onAction('delete')}>
          Delete…
        </button>
      </div>
    </div>
  );
}
