// The account's codes, newest first: thumbnail, title, kind, short link, status, total scans
// and 14 days of scans per code; search and filters kept in the address; pause, resume and
// delete one code or a selection at once. A viewer sees the list without any edit control.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiError, type BulkAction, type QrItem, type TagCount, api } from '../../api.ts';
import { announce, useFocusLater } from '../../components/announce.ts';
import { AppLayout } from '../../components/layout.tsx';
import { Button, Notice, Spinner } from '../../components/ui.tsx';
import { Link, useSearch } from '../../router.ts';
import { can, useAppState } from '../../store.ts';
import { BulkBar } from './bulk-bar.tsx';
import { STATUSES, statusAt } from '../../item-lifecycle.ts';
import { CodeRow } from './code-row.tsx';
import { CodesFilters } from './codes-filters.tsx';
import { isFiltered, parseQuery, toFilter } from './codes-query.ts';
import { DeleteDialog } from '../../components/delete-dialog.tsx';
import { type TagChangeResult, TagDialog } from './tag-dialog.tsx';
import { useCodes } from './use-codes.ts';
import './codes.css';

/** POST /v1/qr/bulk takes at most this many ids; a larger selection goes in turns. */
const BULK_CHUNK = 200;
const DONE: Record<BulkAction, string> = { pause: 'Paused', resume: 'Resumed', delete: 'Deleted' };

export default function CodesPage() {
  const { session } = useAppState();
  const canEdit = can(session, 'write');
  const search = useSearch();
  const query = useMemo(() => parseQuery(search), [search]);
  const filter = useMemo(() => toFilter(query), [query]);
  const codes = useCodes(filter);
  const [tags, setTags] = useState<TagCount[]>([]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; error?: boolean } | null>(null);
  const [deleting, setDeleting] = useState<string[] | null>(null);
  const [tagging, setTagging] = useState<string[] | null>(null);
  const status = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    api.tags().then(setTags, () => setTags([]));
  }, []);
  // Another filter shows other codes: a selection of codes no longer shown would surprise.
  useEffect(() => setSelected(new Set()), [search]);

  // A search or filter changed by the user: once its list is in, how many codes it shows is
  // said aloud (the count and "No codes match" are plain text, far from the search box).
  const shownSearch = useRef(search);
  const countPending = useRef(false);
  useEffect(() => {
    if (search !== shownSearch.current) countPending.current = true;
    shownSearch.current = search;
  }, [search]);
  useEffect(() => {
    if (!countPending.current || codes.busy || codes.items === null) return;
    countPending.current = false;
    announce(codes.error ?? countText(codes.items.length, codes.cursor !== null, isFiltered(query)));
  }, [codes.busy, codes.items, codes.error]);

  const items = codes.items ?? [];
  const titleOf = (id: string) => items.find((i) => i.id === id)?.title ?? id;

  // A code paused or resumed here, as the server now sees it: a resumed code may be scheduled,
  // expired or at its limit rather than active.
  const changed = (it: QrItem, action: BulkAction): QrItem => {
    const next = { ...it, active: action === 'resume' };
    return { ...next, status: statusAt(next, Date.now()) };
  };
  // A paused code under "Status: Active" (or a resumed one under "Paused") no longer belongs
  // in the list; it leaves it, as it would on a reload.
  const leaves = (it: QrItem, action: BulkAction): boolean =>
    action === 'delete' || (query.status !== '' && changed(it, action).status !== query.status);

  const run = async (action: BulkAction, ids: string[]): Promise<void> => {
    setBusy(true);
    setMessage(null);
    const done = new Set<string>();
    let missing = 0;
    try {
      for (let i = 0; i < ids.length; i += BULK_CHUNK) {
        const r = await api.bulkCodes(action, ids.slice(i, i + BULK_CHUNK));
        for (const d of r.done) done.add(d.id);
        missing += r.notFound.length;
      }
      const n = done.size;
      const gone = action === 'delete' ? 0 : items.filter((it) => done.has(it.id) && leaves(it, action)).length;
      const shownAs = `“${STATUSES.find((st) => st.value === query.status)?.label ?? ''}”`;
      const left =
        gone === 0
          ? ''
          : gone === n
            ? ` ${n === 1 ? 'It is' : 'They are'} no longer shown under ${shownAs}.`
            : ` ${gone} of them are no longer shown under ${shownAs}.`;
      setMessage({
        text: `${DONE[action]} ${n === 1 ? `“${titleOf([...done][0] as string)}”` : `${n} codes`}.${missing ? ` ${missing} were already gone.` : ''}${left}`,
      });
    } catch (err) {
      setMessage({ text: err instanceof ApiError ? err.message : 'That did not work. Try again.', error: true });
    } finally {
      const left = new Set(items.filter((it) => done.has(it.id) && leaves(it, action)).map((it) => it.id));
      codes.patch((list) =>
        list.filter((it) => !left.has(it.id)).map((it) => (done.has(it.id) && action !== 'delete' ? changed(it, action) : it)),
      );
      if (left.size > 0) setSelected((s) => new Set([...s].filter((id) => !left.has(id))));
      if (action === 'delete') {
        // Deleted codes leave their tags: the tag filter's counts change.
        api.tags().then(setTags, () => undefined);
      }
      setBusy(false);
      status.current?.focus();
    }
  };

  const onBulk = (action: BulkAction | 'tag') => {
    const ids = [...selected];
    if (action === 'tag') setTagging(ids);
    else if (action === 'delete') setDeleting(ids);
    else void run(action, ids);
  };

  /** Tags saved from the bulk bar: the list shows the new ones (a code no longer under the tag filter leaves it). */
  const tagsChanged = ({ changed, failed }: TagChangeResult) => {
    const byId = new Map(changed.map((it) => [it.id, it]));
    codes.patch((list) =>
      list
        .map((it) => {
          const c = byId.get(it.id);
          return c ? { ...it, tags: c.tags, updatedAt: c.updatedAt } : it;
        })
        .filter((it) => query.tag === '' || it.tags.includes(query.tag)),
    );
    api.tags().then(setTags, () => undefined);
    const n = changed.length;
    const ok = n === 0 ? 'No tags changed.' : `Tags saved on ${n === 1 ? `“${changed[0]?.title}”` : `${n} codes`}.`;
    const bad = failed.map((f) => ` “${f.title}”: ${f.error}.`).join('');
    setMessage({ text: failed.length > 0 ? `${ok} Not changed:${bad}` : ok, error: failed.length > 0 });
  };

  /** A new selection from the user's tick: its size is said, as the bar that shows it is above the list. */
  const select = (next: Set<string>) => {
    setSelected(next);
    announce(
      next.size === 0
        ? 'No codes selected.'
        : `${next.size === 1 ? '1 code' : `${next.size} codes`} selected. Pause, Resume, Tags and Delete are in the bar above the list.`,
    );
  };
  const focusLater = useFocusLater();
  const showMore = async () => {
    const before = items.length;
    await codes.more();
    // The button may go (the last page): the focus goes to the first code added, where
    // reading goes on; without new codes it stays on the button.
    focusLater(() => {
      const names = document.querySelectorAll<HTMLElement>('.code-row .code-row__name');
      const added = names.length - before;
      if (added > 0) announce(`${added === 1 ? '1 more code' : `${added} more codes`} shown, ${names.length} in all.`);
      return names[before] ?? (document.activeElement === document.body ? document.getElementById('codes-q') : null);
    });
  };

  const allSelected = items.length > 0 && items.every((i) => selected.has(i.id));
  const someSelected = !allSelected && items.some((i) => selected.has(i.id));
  const selectAll = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (selectAll.current) selectAll.current.indeterminate = someSelected;
  }, [someSelected]);

  return (
    <AppLayout
      title="Codes"
      actions={
        <div class="codes-tools">
          <Link href={`/codes/transfer${search}`} class="btn btn--secondary">
            {canEdit ? 'Import & export' : 'Export'}
          </Link>
          {canEdit ? (
            <>
              <Link href="/codes/many" class="btn btn--secondary">
                Create many
              </Link>
              <Link href="/codes/static" class="btn btn--secondary">
                Static code
              </Link>
              <Link href="/codes/new" class="btn btn--primary">
                New code
              </Link>
            </>
          ) : null}
        </div>
      }
    >
      <CodesFilters query={query} tags={tags} />
      <p ref={status} tabIndex={-1} class={message?.error ? 'form-error' : 'codes-status'} role={message?.error ? 'alert' : 'status'}>
        {message?.text ?? ''}
      </p>
      {canEdit ? <BulkBar count={selected.size} busy={busy} onAction={onBulk} onClear={() => select(new Set())} /> : null}
      {codes.error ? (
        <p class="form-error" role="alert">
          {codes.error}
        </p>
      ) : null}
      {codes.items === null ? (
        codes.error ? null : (
          <Spinner />
        )
      ) : items.length === 0 ? (
        codes.cursor ? (
          <Notice>No match among the codes searched so far: this search has no index to use, so it reads the codes in turn.</Notice>
        ) : isFiltered(query) ? (
          <Notice>No codes match these filters.</Notice>
        ) : canEdit ? (
          <FirstCode owner={session?.account.role === 'owner'} />
        ) : (
          <Notice>No codes yet. Someone with the editor or owner role can create them.</Notice>
        )
      ) : (
        <div class={`codes${codes.busy ? ' codes--loading' : ''}`} aria-busy={codes.busy ? 'true' : undefined}>
          {canEdit ? (
            <label class="check codes__select-all">
              <input
                ref={selectAll}
                type="checkbox"
                checked={allSelected}
                onChange={(e) => select(e.currentTarget.checked ? new Set(items.map((i) => i.id)) : new Set())}
              />
              Select all shown
            </label>
          ) : null}
          <table class="codes__table">
            <caption class="visually-hidden">Your QR codes, newest first</caption>
            <thead>
              <tr>
                {canEdit ? (
                  <th scope="col" class="code-row__sel">
                    <span class="visually-hidden">Selected</span>
                  </th>
                ) : null}
                <th scope="col" class="code-row__thumb">
                  <span class="visually-hidden">Image</span>
                </th>
                <th scope="col">Code</th>
                <th scope="col">Short link</th>
                <th scope="col">Status</th>
                <th scope="col" class="num">
                  Scans
                </th>
                <th scope="col">Last 14 days</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((it) => (
                <CodeRow
                  key={it.id}
                  item={it}
                  scans={codes.sparks.get(it.id)}
                  days={codes.days}
                  actions={
                    canEdit
                      ? {
                          selected: selected.has(it.id),
                          busy,
                          onSelect: (on) => {
                            const next = new Set(selected);
                            if (on) next.add(it.id);
                            else next.delete(it.id);
                            select(next);
                          },
                          onToggleActive: () => void run(it.active ? 'pause' : 'resume', [it.id]),
                          onDelete: () => setDeleting([it.id]),
                        }
                      : null
                  }
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {codes.items && codes.items.length > 0 ? (
        <p class="muted small codes__count">
          {items.length === 1 ? '1 code shown' : `${items.length} codes shown`}
          {codes.cursor ? ', more below' : ''}
        </p>
      ) : null}
      {codes.cursor ? (
        <Button variant="secondary" busy={codes.busy} onClick={() => void showMore()}>
          {items.length === 0 ? 'Search further' : 'Show more'}
        </Button>
      ) : null}
      {tagging ? (
        <TagDialog
          codes={items.filter((it) => tagging.includes(it.id))}
          known={tags}
          onClose={() => {
            setTagging(null);
            status.current?.focus();
          }}
          onDone={(r) => tagsChanged(r)}
        />
      ) : null}
      {deleting ? (
        <DeleteDialog
          titles={deleting.map(titleOf)}
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            const ids = deleting;
            setDeleting(null);
            await run('delete', ids);
          }}
        />
      ) : null}
    </AppLayout>
  );
}

/** The list's size as said after a search or filter change. */
function countText(n: number, more: boolean, filtered: boolean): string {
  if (n === 0)
    return more
      ? 'No match among the codes searched so far. Search further is below the list.'
      : filtered
        ? 'No codes match these filters.'
        : 'No codes yet.';
  return `${n === 1 ? '1 code' : `${n} codes`} shown${more ? ', more below' : ''}.`;
}

/** Where a new account starts (setup and sign-up land here): its first code, one click away. */
function FirstCode({ owner }: { owner: boolean }) {
  return (
    <section class="card first-code" aria-labelledby="first-code-h">
      <h2 id="first-code-h">Create your first code</h2>
      <p>No codes yet. A code you create here leads to a short link: you can change where it goes after printing, and see who scans it.</p>
      <Link class="btn" href="/codes/new">
        Create your first code
      </Link>
      {owner ? (
        <p class="muted small">
          Working with the API instead? Make a key under <Link href="/account/keys">Account → API keys</Link>.
        </p>
      ) : null}
    </section>
  );
}
