// The studio: create a code (/codes/new) or edit one (/codes/:id/edit). Content on the
// left, design below it, the live preview with its scan check beside them; saving goes
// through /v1 like any client. A viewer gets the preview and downloads, no edit controls.
import './studio.css';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { DEFAULT_DESIGN, type QrDesign } from '../../../src/domain/design/design-schema.ts';
import { TITLE_MAX } from '../../../src/domain/qr-title.ts';
import { ApiError, type CreateQrRequest, type QrItem, type SavedDesign, api, onSignedOut } from '../../api.ts';
import { announce } from '../../components/announce.ts';
import { Field } from '../../components/field.tsx';
import { AppLayout } from '../../components/layout.tsx';
import { Button, FormError, Notice, Spinner } from '../../components/ui.tsx';
import { Link, navigate, setLeaveGuard } from '../../router.ts';
import { can, useAppState } from '../../store.ts';
import { checkContent, contentFromPayload, emptyFields, FIELDS, typedFields } from './content-model.ts';
import { ContentPanel } from './content-panel.tsx';
import { DesignLibrary } from './design-library.tsx';
import { type Draft, type StashedDraft, dropStashedDraft, stashDraft, stashedDraftFor } from './draft-stash.ts';
import { BUILT_IN_DESIGNS, type DesignErrors, rangeErrors } from './design-file.ts';
import { DesignPanel } from './design-groups.tsx';
import { Downloads } from './downloads.tsx';
import { loadRenderer, PreviewPanel } from './preview-panel.tsx';

/** Encoded by the preview of a code not saved yet: a short link of the real length. */
const SAMPLE_CODE = 'AbCdE12';
/** A message for the page shown after a create (the route changes to the edit page). */
let flash: { warnings: string[] } | null = null;

type Checker = Awaited<ReturnType<typeof loadRenderer>>;

export default function StudioPage({ id }: { id?: string }) {
  const { session } = useAppState();
  const mayEdit = can(session, 'write');
  const [item, setItem] = useState<QrItem | null>(null);
  const [draft, setDraft] = useState<Draft | null>(id === undefined ? newDraft() : null);
  /** What the draft is compared with for "unsaved changes": the stored code, or the blank start. */
  const [saved, setSaved] = useState<string | null>(() => (id === undefined ? snapshot(newDraft()) : null));
  const [loadError, setLoadError] = useState<string | null>(null);
  const [checker, setChecker] = useState<Checker | null>(null);
  /** Fields edited so far. */
  const [touched, setTouched] = useState<Set<string>>(new Set());
  /**
   * Edited fields the focus has left: their errors show, and follow each keystroke from then
   * on, so a fix clears the error at once. A field still being typed in for the first time
   * shows none ("htt" is not yet a wrong address).
   */
  const [left, setLeft] = useState<Set<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  /** Counts failed saves: each one moves the focus to what has to be fixed. */
  const [failures, setFailures] = useState(0);
  const [busy, setBusy] = useState(false);
  const [formError, setFormError] = useState<string | undefined>();
  /** The last save was refused for the marked fields (the message stays while they block it). */
  const [refused, setRefused] = useState(false);
  const [serverField, setServerField] = useState<{ field: string; message: string } | null>(null);
  const [warnings, setWarnings] = useState<string[] | null>(() => {
    const w = flash?.warnings ?? null;
    flash = null;
    return w;
  });
  // A code just created arrives here with its save result: said once the page has its heading.
  const created = useRef(warnings !== null);
  const [designs, setDesigns] = useState<SavedDesign[] | null>(null);
  const path = id === undefined ? '/codes/new' : `/codes/${id}/edit`;
  /** Edits kept when the session ended on this page, offered back now that the user is in again. */
  const [stashed, setStashed] = useState<StashedDraft | null>(() => (session ? stashedDraftFor(path, session.user.id, session.account.id) : null));

  useEffect(() => {
    void loadRenderer().then(setChecker);
    if (id === undefined) return;
    api.getCode(id).then(
      (it) => {
        setItem(it);
        const d = { title: it.title, content: contentFromPayload(it.contentType, it.payload), design: it.design };
        setDraft(d);
        setSaved(snapshot(d));
      },
      // An address whose id is not even a UUID (400 on `id`) names no code either, as on the stats page.
      (err: unknown) =>
        setLoadError(err instanceof ApiError && (err.status === 404 || (err.status === 400 && err.field === 'id')) ? 'There is no such code in this account.' : 'The code could not be loaded.'),
    );
  }, [id]);

  useEffect(() => {
    if (!mayEdit) return;
    api.listDesigns().then(setDesigns, () => setDesigns([]));
  }, [mayEdit]);

  // A snapshot holds the logo's data URL (up to ~700 kB): made once per draft, not per render.
  const current = useMemo(() => (draft ? snapshot(draft) : null), [draft]);
  const dirty = current !== null && saved !== null && current !== saved;

  // The session ending takes the app to the sign-in page: unsaved edits are kept for the way back.
  const latest = useRef({ draft, dirty, session });
  latest.current = { draft, dirty, session };
  useEffect(
    () =>
      onSignedOut(() => {
        const { draft: d, dirty: changed, session: s } = latest.current;
        if (d && changed && s) stashDraft({ path, userId: s.user.id, accountId: s.account.id, draft: d });
      }),
    [path],
  );
  useEffect(() => {
    if (!dirty) return;
    const ask = () => confirm('You have unsaved changes. Leave this page and lose them?');
    const onUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    addEventListener('beforeunload', onUnload);
    const remove = setLeaveGuard(ask);
    return () => {
      removeEventListener('beforeunload', onUnload);
      remove();
    };
  }, [dirty]);

  useEffect(() => {
    if (failures > 0) focusFirstProblem();
  }, [failures]);
  useEffect(() => {
    if (!created.current || item === null || warnings === null) return;
    created.current = false;
    announce(savedMessage('Created', warnings));
  }, [item]);

  const check = useMemo(() => (draft ? checkContent(draft.content) : null), [draft?.content]);
  const designErrors = useMemo<DesignErrors>(() => {
    if (!draft) return {};
    const errors = rangeErrors(draft.design);
    const problem = checker?.checkDesign(draft.design);
    if (problem) errors[problem.field as keyof QrDesign] ??= problem.message;
    if (serverField && serverField.field in DEFAULT_DESIGN) errors[serverField.field as keyof QrDesign] ??= serverField.message;
    return errors;
  }, [draft?.design, checker, serverField]);

  const title = id === undefined ? 'New code' : item ? `Edit “${item.title}”` : 'Edit code';
  if (!mayEdit && id === undefined) {
    return (
      <AppLayout title="New code">
        <Notice>Your role in this account lets you see codes, not create them. Ask an owner to make you an editor.</Notice>
      </AppLayout>
    );
  }
  if (loadError) {
    return (
      <AppLayout title="Edit code">
        <p class="form-error" role="alert">
          {loadError}
        </p>
        <Link href="/codes">Back to your codes</Link>
      </AppLayout>
    );
  }
  if (!draft || !check) {
    return (
      <AppLayout title={title}>
        <Spinner />
      </AppLayout>
    );
  }

  const update = (patch: Partial<Draft>) => {
    setDraft({ ...draft, ...patch });
    setServerField(null);
  };
  const touch = (f: string | null) => {
    if (f !== null && !touched.has(f)) setTouched(new Set(touched).add(f));
  };
  const titleError = draft.title.trim() === '' ? 'Give the code a title' : [...draft.title].length > TITLE_MAX ? `Must be at most ${TITLE_MAX} characters` : undefined;
  const shown = (f: string) => submitted || left.has(f);
  // The form's fields have ids f-<field> (Field, ContentPanel): one listener finds which was left.
  const leave = (e: FocusEvent) => {
    const id = e.target instanceof HTMLElement ? e.target.id : '';
    const f = id.startsWith('f-') ? id.slice(2) : null;
    if (f !== null && touched.has(f) && !left.has(f)) setLeft(new Set(left).add(f));
  };
  const contentCheck = { ...check, errors: { ...check.errors, ...(serverField && !(serverField.field in DEFAULT_DESIGN) ? { [serverField.field]: serverField.message } : {}) } };
  const designBlocked = Object.keys(designErrors).length > 0;
  const previewData = item ? item.shortUrl : `${location.origin}/r/${SAMPLE_CODE}`;

  // A content rule is named under its field; one whose field is not on screen is named here,
  // so a save is never refused without a visible reason.
  const onScreen = new Set<string>(draft.content.raw !== null ? ['payload'] : FIELDS[draft.content.kind].map((d) => d.name));
  const offScreen = Object.entries(check.errors).filter(([f]) => !onScreen.has(f)).map(([, m]) => m);

  // Said after a refused save while something still blocks it, so it goes once the fields are fixed.
  const blocked = Boolean(titleError) || check.payload === null || designBlocked;
  const marked = Boolean(titleError) || designBlocked || Object.keys(check.errors).some((f) => onScreen.has(f));
  const blockedMessage = refused && blocked ? [marked ? 'Fix the marked fields first.' : '', offScreen.length ? `The content cannot be saved: ${offScreen.join('; ')}.` : ''].filter(Boolean).join(' ') : '';

  const restore = (keep: boolean) => {
    if (keep && stashed) {
      setDraft(stashed.draft);
      setTouched(new Set());
      setLeft(new Set());
      setSubmitted(false);
    }
    dropStashedDraft();
    setStashed(null);
  };

  const save = async () => {
    setSubmitted(true);
    setFormError(undefined);
    setRefused(blocked);
    if (blocked) {
      setFailures((n) => n + 1);
      return;
    }
    const body: CreateQrRequest = {
      title: draft.title.trim(),
      contentType: draft.content.kind,
      ...(draft.content.raw !== null ? { payload: draft.content.raw } : typedFields(draft.content)),
      design: draft.design,
    };
    setBusy(true);
    try {
      const out = item ? await api.updateCode(item.id, body) : await api.createCode(body);
      // What was saved supersedes any edits still kept from an ended session.
      dropStashedDraft();
      setStashed(null);
      const next = { title: out.item.title, content: contentFromPayload(out.item.contentType, out.item.payload), design: out.item.design };
      if (!item) {
        flash = { warnings: out.warnings };
        setSaved(snapshot(draft)); // not dirty any more: the route change must not ask
        navigate(`/codes/${out.item.id}/edit`, { replace: true, force: true });
        return;
      }
      setItem(out.item);
      setDraft(next);
      setSaved(snapshot(next));
      setWarnings(out.warnings);
      // The focus stays on the save button the user pressed; the result is said aloud.
      announce(savedMessage('Saved', out.warnings));
      setSubmitted(false);
      setTouched(new Set());
      setLeft(new Set());
    } catch (err) {
      if (err instanceof ApiError && err.field) setServerField({ field: err.field, message: err.message });
      setFormError(err instanceof ApiError ? err.message : 'The code could not be saved.');
      setFailures((n) => n + 1);
    } finally {
      setBusy(false);
    }
  };

  // The same button in the header and at the end of the form: one handler, one busy state.
  const saveButton = (
    <Button busy={busy} onClick={() => void save()}>
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
      {mayEdit ? saveButton : null}
    </div>
  );

  return (
    <AppLayout title={mayEdit ? title : item?.title ?? 'Code'} actions={actions}>
      {/* Above both columns: on a phone the preview comes first and would push it out of sight. */}
      {stashed && mayEdit ? <RestoreOffer stashed={stashed} onAnswer={restore} /> : null}
      {/* Also above both columns: on a phone the save result (and the server's warnings) right
          under the heading, not below the preview, 1,400 px down. It is said aloud by announce. */}
      {warnings !== null ? <SaveResult warnings={warnings} /> : null}
      <div class="studio">
        <div class="studio__edit" onFocusOut={leave}>
          <FormError message={formError ?? (blockedMessage || undefined)} />
          <LinkSummary item={item} payload={check.payload} />
          {mayEdit ? (
            <>
              <div class="card">
                <Field label="Title" name="title" value={draft.title} required maxLength={TITLE_MAX} hint="Shown in your list and used to name downloaded files" error={shown('title') ? titleError : undefined} onInput={(t) => (update({ title: t }), touch('title'))} />
              </div>
              <ContentPanel content={draft.content} check={contentCheck} shown={shown} readOnly={false} onChange={(content, f) => (update({ content }), touch(f))} />
              <section class="card" aria-labelledby="design-h">
                <h2 id="design-h">Design</h2>
                <DesignPanel design={draft.design} errors={designErrors} set={(patch) => update({ design: { ...draft.design, ...patch } })} />
              </section>
              <DesignLibrary
                design={draft.design}
                title={draft.title}
                saved={designs}
                onApply={(design) => update({ design })}
                onSave={async (name) => {
                  const created = await api.createDesign(name, draft.design);
                  setDesigns([created, ...(designs ?? [])]);
                }}
                onDelete={async (designId) => {
                  await api.deleteDesign(designId);
                  setDesigns((designs ?? []).filter((d) => d.id !== designId));
                }}
              />
              {/* Sticks to the bottom of the screen while the form scrolls: the form is long,
                  and the header's button is far above where the user finishes. */}
              <div class="studio__actions">
                <p class="studio__status muted small">
                  {busy ? 'Saving…' : !item ? 'Not created yet' : dirty ? 'Unsaved changes' : warnings?.length ? 'All changes saved, with warnings (at the top)' : 'All changes saved'}
                </p>
                {saveButton}
              </div>
            </>
          ) : null}
        </div>
        <div class="studio__side">
          <PreviewPanel data={previewData} design={draft.design} blocked={designBlocked} title={draft.title} />
          {item ? <Downloads item={item} dirty={dirty} /> : <p class="muted small card">Downloads and the short link appear once the code is created.</p>}
        </div>
      </div>
    </AppLayout>
  );
}

/** After a failed save: the first marked field (its design group opened), else the form's message. */
function focusFirstProblem(): void {
  const field = document.querySelector<HTMLElement>('.studio__edit [aria-invalid="true"]');
  const details = field?.closest('details');
  if (details) details.open = true;
  (field ?? document.querySelector<HTMLElement>('.studio__edit .form-error'))?.focus();
}

/** What a save says aloud: the server's warnings in full, since they are far from the button on a phone. */
function savedMessage(what: 'Created' | 'Saved', warnings: string[]): string {
  return warnings.length ? `${what}, with warnings from the server: ${warnings.join(' ')}` : `${what}.`;
}

function SaveResult({ warnings }: { warnings: string[] }) {
  return (
    <div class={`notice save-result ${warnings.length ? 'notice--warning' : 'notice--success'}`} id="save-result">
      {warnings.length ? (
        <>
          <p>Saved, with warnings from the server:</p>
          <ul>
            {warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </>
      ) : (
        'Saved.'
      )}
    </div>
  );
}

/** Edits kept when the session ended: the user chooses, nothing is put into the form unasked. */
function RestoreOffer({ stashed, onAnswer }: { stashed: StashedDraft; onAnswer: (keep: boolean) => void }) {
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

function LinkSummary({ item, payload }: { item: QrItem | null; payload: string | null }) {
  if (!item) return null;
  return (
    <section class="card link-summary" aria-labelledby="link-h">
      <h2 id="link-h">Short link</h2>
      <p>
        <code id="short-url">{item.shortUrl}</code> {item.active ? <span class="badge">Active</span> : <span class="badge">Paused</span>}
      </p>
      <p>
        <span class="muted">Leads to:</span> <code>{payload ?? item.payload}</code>
      </p>
    </section>
  );
}

function newDraft(): Draft {
  const params = new URLSearchParams(location.search);
  const builtIn = Number(params.get('design')?.replace(/^builtin:/, '') ?? NaN);
  const design = BUILT_IN_DESIGNS[builtIn]?.design ?? DEFAULT_DESIGN;
  return { title: '', content: { kind: 'url', fields: emptyFields(), raw: null }, design: { ...design } };
}

function snapshot(d: Draft): string {
  return JSON.stringify([d.title, d.content.kind, d.content.raw ?? typedFields(d.content), d.design]);
}
