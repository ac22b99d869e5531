import { Button } from '../../components/ui.tsx';
import type { StashedDraft } from './draft-stash.ts';

/** Edits kept when the session ended: the user chooses, nothing is put into the form unasked. */
export function RestoreOffer({ stashed, onAnswer }: { stashed: StashedDraft; onAnswer: (keep: boolean) => void }) {
  const at = new Date(stashed.savedAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return (
    <section class="notice notice--warning restore-offer" aria-labelledby="restore-h">
      <h2 id="restore-h" class="restore-offer__title">
        Restore your unsaved changes?
      </h2>
      <p>
        Your session ended at {at} before “{stashed.draft.title.trim() || 'Untitled'}” was saved. The changes were kept in this tab.
      </p>
      <div class="button-row">
        <Button onClick={() => onAnswer(true)}>Restore changes</Button>
        <Button variant="secondary" onClick={() => onAnswer(false)}>
          Discard them
        </Button>
      </div>
    </section>
  );
}
