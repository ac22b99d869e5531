import type { ComponentChildren } from 'preact';
import { TITLE_MAX } from '../../../src/domain/qr-items/qr-title.ts';
import { Field } from '../../components/field.tsx';
import { ContentPanel } from './content-panel.tsx';
import { DesignPanel } from './design-groups.tsx';
import { DesignLibrary } from './design-library.tsx';
import type { SavedDesigns } from './use-saved-designs.ts';
import type { DraftForm, StudioDraft } from './use-studio-draft.ts';

interface StudioFormProps {
  studio: StudioDraft;
  form: DraftForm;
  designs: SavedDesigns;
  saveButton: ComponentChildren;
}

/** An editor's form: title, content, design and the design library, then the save button that stays in sight. */
export function StudioForm({ studio, form, designs, saveButton }: StudioFormProps) {
  const { draft, checks, visibility, update } = form;
  const { shown, touch } = visibility;
  return (
    <>
      <div class="card">
        <Field
          label="Title"
          name="title"
          value={draft.title}
          required
          maxLength={TITLE_MAX}
          hint="Shown in your list and used to name downloaded files"
          error={shown('title') ? checks.title : undefined}
          onInput={(t) => (update({ title: t }), touch('title'))}
        />
      </div>
      <ContentPanel
        content={draft.content}
        check={checks.content}
        shown={shown}
        readOnly={false}
        onChange={(content, f) => (update({ content }), touch(f))}
      />
      <section class="card" aria-labelledby="design-h">
        <h2 id="design-h">Design</h2>
        <DesignPanel design={draft.design} errors={checks.design} set={(patch) => update({ design: { ...draft.design, ...patch } })} />
      </section>
      <DesignLibrary
        design={draft.design}
        title={draft.title}
        saved={designs.designs}
        onApply={(design) => update({ design })}
        onSave={(name) => designs.save(name, draft.design)}
        onDelete={designs.remove}
      />
      {/* Sticks to the bottom of the screen while the form scrolls: the form is long,
          and the header's button is far above where the user finishes. */}
      <div class="studio__actions">
        <p class="studio__status muted small">{statusOf(studio)}</p>
        {saveButton}
      </div>
    </>
  );
}

function statusOf({ busy, item, dirty, warnings }: StudioDraft): string {
  if (busy) return 'Saving…';
  if (!item) return 'Not created yet';
  if (dirty) return 'Unsaved changes';
  return warnings?.length ? 'All changes saved, with warnings (at the top)' : 'All changes saved';
}
