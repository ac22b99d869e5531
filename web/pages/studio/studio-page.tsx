// The studio: create a code (/codes/new) or edit one (/codes/:id/edit). Content on the
// left, design below it, the live preview with its scan check beside them; saving goes
// through /v1 like any client. A viewer gets the preview and downloads, no edit controls.
// The draft itself (loading, checks, saving) is useStudioDraft's; this is layout and wiring.
import './studio.css';
import { CodeActions } from '../../components/code-actions.tsx';
import { AppLayout } from '../../components/layout.tsx';
import { Button, FormError, Notice, Spinner } from '../../components/ui.tsx';
import { Link } from '../../router.ts';
import { can, useAppState } from '../../store.ts';
import { Downloads } from './downloads.tsx';
import { LinkSummary } from './link-summary.tsx';
import { useState } from 'preact/hooks';
import { draftOf } from './draft-model.ts';
import { MiniPreview, PreviewPanel, type Preview, usePreview } from './preview-panel.tsx';
import { RestoreOffer } from './restore-offer.tsx';
import { SaveResult } from './save-result.tsx';
import { StudioForm } from './studio-form.tsx';
import { useSavedDesigns } from './use-saved-designs.ts';
import { useStudioDraft } from './use-studio-draft.ts';
import { WontScanDialog } from './wont-scan-dialog.tsx';
import { sampleShortLink } from '../../../src/domain/qr-items/sample-short-link.ts';

export { default as StaticPage } from './static-page.tsx';

export default function StudioPage({ id }: { id?: string }) {
  const { session } = useAppState();
  const mayEdit = can(session, 'write');
  const studio = useStudioDraft(id, session);
  const designs = useSavedDesigns(mayEdit);
  const { item, form } = studio;
  const preview = usePreview(
    item ? item.shortUrl : sampleShortLink(location.origin),
    form?.draft.design ?? null,
    form?.checks.designBlocked ?? false,
  );
  const [previewInView, setPreviewInView] = useState(true);
  const [asking, setAsking] = useState(false);
  const title = id === undefined ? 'New code' : item ? `Edit “${item.title}”` : 'Edit code';
  if (!mayEdit && id === undefined) {
    return (
      <AppLayout title="New code">
        <Notice>Your role in this account lets you see codes, not create them. Ask an owner to make you an editor.</Notice>
      </AppLayout>
    );
  }
  if (studio.loadError) {
    return (
      <AppLayout title="Edit code">
        <p class="form-error" role="alert">
          {studio.loadError}
        </p>
        <Link href="/codes">Back to your codes</Link>
      </AppLayout>
    );
  }
  if (!form) {
    return (
      <AppLayout title={title}>
        <Spinner />
      </AppLayout>
    );
  }

  const verdict = unscannable(preview);
  // A design the scan check could not read is created (or saved, once changed) only when the
  // user says so: the API would take it, and it would be printed. Checks that block a save come first.
  const save = () => {
    const designChanged = !item || JSON.stringify(form.draft.design) !== JSON.stringify(draftOf(item).design);
    if (verdict && designChanged && !form.checks.blocked) setAsking(true);
    else void form.save();
  };
  // The same button in the header and at the end of the form: one handler, one busy state.
  const saveButton = (
    <Button busy={studio.busy} onClick={save}>
      {item ? 'Save changes' : 'Create code'}
    </Button>
  );
  const actions = (
    <div class="button-row">
      {item ? (
        <Link class="btn btn--secondary" href={`/codes/${item.id}`}>
          Stats
        </Link>
      ) : null}
      {item && mayEdit ? <CodeActions item={item} onChange={studio.changed} /> : null}
      {mayEdit ? saveButton : null}
    </div>
  );

  return (
    <AppLayout title={mayEdit ? title : (item?.title ?? 'Code')} actions={actions}>
      {/* Above both columns: on a phone the preview comes first and would push it out of sight. */}
      {studio.stashed && mayEdit ? <RestoreOffer stashed={studio.stashed} onAnswer={studio.restore} /> : null}
      {/* Also above both columns: on a phone the save result (and the server's warnings) right
          under the heading, not below the preview, 1,400 px down. It is said aloud by announce. */}
      {studio.warnings !== null ? <SaveResult warnings={studio.warnings} atPreview={preview.warnings} /> : null}
      {asking && verdict ? (
        <WontScanDialog
          creating={!item}
          wrongText={verdict === 'wrong-text'}
          warnings={preview.warnings.length}
          onConfirm={() => void form.save()}
          onClose={() => setAsking(false)}
        />
      ) : null}
      <div class="studio">
        <div class="studio__edit" onFocusOut={form.visibility.leave}>
          <FormError message={form.message} />
          <LinkSummary item={item} payload={form.checks.content.payload} />
          {mayEdit ? (
            <StudioForm
              studio={studio}
              form={form}
              designs={designs}
              saveButton={saveButton}
              mini={<MiniPreview preview={preview} title={form.draft.title} away={!previewInView} />}
            />
          ) : null}
        </div>
        <div class="studio__side">
          <PreviewPanel preview={preview} title={form.draft.title} onInView={setPreviewInView} />
          {item ? (
            <Downloads item={item} dirty={studio.dirty} />
          ) : (
            <p class="muted small card">Downloads and the short link appear once the code is created.</p>
          )}
        </div>
      </div>
    </AppLayout>
  );
}

/** Why the scan check says the drawn design will not scan; null when it scans or is not known yet. */
function unscannable(preview: Preview): 'unreadable' | 'wrong-text' | null {
  const { scan } = preview;
  if (preview.blocked || preview.error !== null || scan.state !== 'done' || scan.result.ok) return null;
  return scan.result.reason;
}
