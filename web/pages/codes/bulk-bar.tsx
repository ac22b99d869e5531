// What can be done to the selected codes at once. Shown only while some are selected.
export function BulkBar({ count, busy, onAction, onClear }: { count: number; busy: boolean; onAction: (a: 'pause' | 'resume' | 'delete') => void; onClear: () => void }) {
  if (count === 0) return null;
  return (
    <div class="bulk-bar" role="region" aria-label="Selected codes">
      <span class="bulk-bar__count">{count === 1 ? '1 code selected' : `${count} codes selected`}</span>
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
        <button type="button" class="btn btn--link" onClick={onClear}>
          Clear selection
        </button>
      </div>
    </div>
  );
}
