import type { ComponentChildren } from 'preact';
import { TITLE_MAX } from '../../../src/domain/qr-items/qr-title.ts';
import { Field } from '../../components/field.tsx';
import { Link } from '../../router.ts';
import { TagEditor, useAccountTags } from '../../components/tag-editor.tsx';
import { HEADING_MAX, publicHeadingOf } from '../../../src/domain/qr-items/public-heading.ts';
import { ContentPanel } from './content-panel.tsx';
import { DesignPanel } from './design-groups.tsx';
import { DesignLibrary } from './design-library.tsx';
import { REDIRECT_KINDS } from './lifecycle-model.ts';
import { RulesEditor } from './rules-editor.tsx';
import { SchedulePanel } from './schedule-panel.tsx';
import { VisitorTestBox } from './visitor-test.tsx';
import type { SavedDesigns } from './use-saved-designs.ts';
import type { DraftForm, StudioDraft } from './use-studio-draft.ts';

interface StudioFormProps {
  studio: StudioDraft;
  form: DraftForm;
  designs: SavedDesigns;
  saveButton: ComponentChildren;
  /** The preview in small, for the bar at the bottom (on a phone, while the preview is away). */
  mini: ComponentChildren;
}

/** An editor's form: title, content, schedule and rules, design and the design library, then the save button that stays in sight. */
export function StudioForm({ studio, form, designs, saveButton, mini }: StudioFormProps) {
  const { draft, checks, visibility, update } = form;
  const { shown, touch } = visibility;
  const stored = studio.item;
  const redirects = REDIRECT_KINDS.has(draft.content.kind);
  const accountTags = useAccountTags();
  return (
    <>
      <div class="card">
        <Field
          label="Title"
          name="title"
          value={draft.title}
          required
          countTo={TITLE_MAX}
          hint="Yours alone: names the code in your list and its downloaded files; never shown to people who scan it"
          error={shown('title') ? checks.title : undefined}
          onInput={(t) => (update({ title: t }), touch('title'))}
        />
        {SHOWN_KINDS.has(draft.content.kind) ? (
          <Field
            label="Heading on its page"
            name="heading"
            value={draft.heading}
            countTo={HEADING_MAX}
            hint={
              draft.content.kind === 'vcard'
                ? 'The page shows the contact’s name; this, when the card has none (empty: “Contact”), and as the page’s title'
                : `What people who scan it see at the top of its page; empty: “${publicHeadingOf({ heading: null, contentType: draft.content.kind })}”`
            }
            error={headingError(draft.heading)}
            onInput={(heading) => update({ heading })}
          />
        ) : null}
        <TagEditor
          id="f-tags"
          label="Tags"
          hint="To find and filter codes in your list (a campaign, a venue); never shown to visitors"
          tags={draft.tags}
          suggestions={accountTags}
          onChange={(tags) => update({ tags })}
        />
      </div>
      <ContentPanel
        content={draft.content}
        check={checks.content}
        shown={shown}
        readOnly={false}
        onChange={(content, f) => (update({ content }), touch(f))}
      />
      {!stored && STATIC_KINDS.has(draft.content.kind) ? (
        <p class="muted small studio__static-hint">
          This code goes through a short link, so it is tracked and can be changed after printing; a phone needs to be online to open it.
          For one that holds the {draft.content.kind === 'wifi' ? 'network' : 'content'} itself and works offline (not tracked), make a{' '}
          <Link href="/codes/static">static code</Link>.
        </p>
      ) : null}
      <SchedulePanel
        lifecycle={draft.lifecycle}
        password={draft.password}
        hasPassword={stored?.hasPassword === true}
        status={stored?.status}
        capCount={stored && stored.maxScans !== null ? stored.capCount : undefined}
        redirects={redirects}
        errors={checks.dynamic}
        shown={shown}
        onLifecycle={(patch, f) => (update({ lifecycle: { ...draft.lifecycle, ...patch } }), touch(f))}
        onPassword={(password, f) => (update({ password }), touch(f))}
      />
      {redirects ? (
        <RulesEditor rules={draft.rules} errors={checks.dynamic} shown={shown} onChange={(rules, f) => (update({ rules }), touch(f))} />
      ) : null}
      {redirects && stored ? <VisitorTestBox itemId={stored.id} rules={stored.rules} dirty={studio.dirty} /> : null}
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
        {mini}
        <p class="studio__status muted small">{statusOf(studio)}</p>
        {saveButton}
      </div>
    </>
  );
}

/** The kinds the static-code page makes too. */
const STATIC_KINDS: ReadonlySet<string> = new Set(['wifi', 'vcard', 'text', 'email']);

/** The kinds whose short link opens a page of ours (the others redirect): a heading is theirs. */
const SHOWN_KINDS: ReadonlySet<string> = new Set(['wifi', 'vcard', 'text']);

function headingError(heading: string): string | undefined {
  const n = [...heading.trim()].length;
  return n > HEADING_MAX ? `Must be at most ${HEADING_MAX} characters` : undefined;
}

function statusOf({ busy, item, dirty, warnings }: StudioDraft): string {
  if (busy) return 'Saving…';
  if (!item) return 'Not created yet';
  if (dirty) return 'Unsaved changes';
  return warnings?.length ? 'All changes saved, with warnings' : 'All changes saved';
}
