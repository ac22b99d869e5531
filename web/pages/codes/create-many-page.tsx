// "Create many" (issue #32): rows pasted or read from a file (title, web address, tags), seen in
// a preview with what is wrong in each, then created through POST /v1/qr/batch in batches,
// each all or nothing, with progress. A refused batch names each broken row; the batches
// before it stay created, and the report says which rows those were.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { TITLE_MAX } from '../../../src/domain/qr-items/qr-title.ts';
import type { QrDesign } from '../../../src/domain/design/design-schema.ts';
import { ApiError, type SavedDesign, api } from '../../api.ts';
import { announce } from '../../components/announce.ts';
import { AppLayout } from '../../components/layout.tsx';
import { TagEditor, useAccountTags } from '../../components/tag-editor.tsx';
import { Button, Notice } from '../../components/ui.tsx';
import { Link } from '../../router.ts';
import { can, useAppState } from '../../store.ts';
import { BUILT_IN_DESIGNS } from '../studio/design-file.ts';
import { type Row, parseRows } from './rows.ts';
import './codes.css';

/** Codes a request: half what POST /v1/qr/batch takes, so a batch is done in a few seconds. */
const BATCH = 500;
/** The preview lists this many rows; the rest are counted (and checked). */
const SHOWN = 200;
const counts = new Intl.NumberFormat();

/** What is wrong with a row before anything is sent; the server checks the rest. */
function rowProblem(row: Row): string | null {
  const length = [...row.title].length;
  if (length === 0) return 'Needs a title';
  if (length > TITLE_MAX) return `The title has ${length} characters, ${length - TITLE_MAX} too many (at most ${TITLE_MAX})`;
  if (row.url === '') return 'Needs a web address';
  return null;
}

/** A refused batch's message, `items[3].url: …; items[9].title: …; and 4 more`, by item. */
function itemErrors(raw: string): { byItem: Map<number, string>; more: number } {
  const byItem = new Map<number, string>();
  for (const m of raw.matchAll(/items\[(\d+)\]\.?([\w.[\]]*): (.+?)(?=; items\[|; and \d+ more$|$)/g)) {
    const field = m[2] === '' ? '' : `${m[2] === 'url' ? 'Web address' : m[2]}: `;
    byItem.set(Number(m[1]), `${field}${m[3]}`);
  }
  const more = Number(/; and (\d+) more$/.exec(raw)?.[1] ?? 0);
  return { byItem, more };
}

type Outcome =
  | { kind: 'done'; created: number }
  | { kind: 'refused'; created: number; byLine: Map<number, string>; more: number; message: string | null };

export default function CreateManyPage() {
  const { session } = useAppState();
  const known = useAccountTags();
  const [text, setText] = useState('');
  const [tags, setTags] = useState<string[]>([]);
  const [designs, setDesigns] = useState<SavedDesign[]>([]);
  const [design, setDesign] = useState('builtin:0');
  const [progress, setProgress] = useState<number | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  useEffect(() => void api.listDesigns().then(setDesigns, () => undefined), []);
  const { rows, header } = useMemo(() => parseRows(text), [text]);
  const problems = useMemo(() => new Map(rows.flatMap((r) => (rowProblem(r) ? [[r.line, rowProblem(r) as string]] : []))), [rows]);

  if (!can(session, 'write')) {
    return (
      <AppLayout title="Create many codes">
        <Notice>Your role in this account lets you see codes, not create them. Ask an owner to make you an editor.</Notice>
      </AppLayout>
    );
  }

  const designOf = (): QrDesign | undefined => {
    if (design.startsWith('builtin:')) return BUILT_IN_DESIGNS[Number(design.slice(8))]?.design;
    return designs.find((d) => d.id === design)?.design;
  };
  const create = async () => {
    setOutcome(null);
    let created = 0;
    setProgress(0);
    const chosen = designOf();
    try {
      for (let at = 0; at < rows.length; at += BATCH) {
        const batch = rows.slice(at, at + BATCH);
        try {
          await api.createBatch(
            batch.map((r) => ({
              title: r.title,
              url: r.url,
              ...(r.tags.length + tags.length > 0 ? { tags: [...new Set([...r.tags, ...tags])] } : {}),
              ...(chosen ? { design: chosen } : {}),
            })),
          );
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          const { byItem, more } = itemErrors(err.raw);
          const byLine = new Map([...byItem].map(([i, e]) => [batch[i]?.line ?? 0, e]));
          setOutcome({ kind: 'refused', created, byLine, more, message: byItem.size === 0 ? err.message : null });
          announce(
            `Stopped: ${byLine.size === 0 ? err.message : `${byLine.size + more} rows need fixing`}. ${created} codes were created before.`,
          );
          return;
        }
        created += batch.length;
        setProgress(created);
      }
      setOutcome({ kind: 'done', created });
      setText('');
      announce(`Created ${created === 1 ? '1 code' : `${counts.format(created)} codes`}.`);
    } finally {
      setProgress(null);
    }
  };
  const errorAt = (line: number) => (outcome?.kind === 'refused' ? outcome.byLine.get(line) : undefined) ?? problems.get(line);
  const listTag = tags[0];
  return (
    <AppLayout title="Create many codes">
      <p class="crumbs">
        <Link href="/codes">Codes</Link> › Create many
      </p>
      <section class="card" aria-labelledby="rows-h">
        <h2 id="rows-h">Rows</h2>
        <div class="field">
          <label for="many-rows">One code a line: title, web address, tags</label>
          <p class="hint" id="many-rows-hint">
            Separated by commas, or pasted from a spreadsheet (columns title, web address, tags). Tags separated by |. A first row naming
            the columns (<code>title,url,tags</code>) may give them in any order.
          </p>
          <textarea
            id="many-rows"
            rows={8}
            value={text}
            spellcheck={false}
            aria-describedby="many-rows-hint"
            placeholder={'Spring menu, https://example.com/menu, restaurant|spring\nWine list, https://example.com/wine'}
            onInput={(e) => (setText(e.currentTarget.value), setOutcome(null))}
          />
        </div>
        <div class="field">
          <label for="many-file">Or read them from a file</label>
          <p class="hint" id="many-file-hint">
            CSV or tab-separated text, the same columns. For a full export with designs, use{' '}
            <Link href="/codes/transfer">Import & export</Link>.
          </p>
          <input
            id="many-file"
            type="file"
            accept=".csv,.tsv,.txt,text/csv,text/plain,text/tab-separated-values"
            aria-describedby="many-file-hint"
            onChange={async (e) => {
              const f = e.currentTarget.files?.[0];
              if (f) setText(await f.text()), setOutcome(null);
            }}
          />
        </div>
        <TagEditor
          id="many-tags"
          label="Tags for every code"
          hint="A tag finds these codes again (and exports their images as one ZIP)"
          tags={tags}
          suggestions={known}
          onChange={setTags}
        />
        <div class="field">
          <label for="many-design">Design</label>
          <select id="many-design" value={design} onChange={(e) => setDesign(e.currentTarget.value)}>
            <optgroup label="Built in">
              {BUILT_IN_DESIGNS.map((d, i) => (
                <option key={d.name} value={`builtin:${i}`}>
                  {d.name}
                </option>
              ))}
            </optgroup>
            {designs.length > 0 ? (
              <optgroup label="Saved designs">
                {designs.map((d) => (
                  <option key={d.id} value={d.id}>
                    {d.name}
                  </option>
                ))}
              </optgroup>
            ) : null}
          </select>
        </div>
      </section>
      {rows.length > 0 ? (
        <section class="card" aria-labelledby="preview-h">
          <h2 id="preview-h">
            Preview: {rows.length === 1 ? '1 code' : `${counts.format(rows.length)} codes`}
            {header ? <span class="muted small"> (the first line names the columns)</span> : null}
          </h2>
          {problems.size > 0 ? (
            <p class="form-error" id="many-problems">
              {problems.size === 1 ? '1 row needs' : `${problems.size} rows need`} fixing before anything is created.
            </p>
          ) : null}
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must take the focus, or a keyboard cannot scroll it (axe: scrollable-region-focusable) */}
          <div class="many__scroll" tabIndex={0} role="region" aria-labelledby="preview-h">
            <table class="many__table">
              <caption class="visually-hidden">The codes to create</caption>
              <thead>
                <tr>
                  <th scope="col">Line</th>
                  <th scope="col">Title</th>
                  <th scope="col">Web address</th>
                  <th scope="col">Tags</th>
                </tr>
              </thead>
              <tbody>
                {rows.slice(0, SHOWN).map((r) => {
                  const error = errorAt(r.line);
                  return (
                    <tr key={r.line} class={error ? 'many__row--bad' : undefined} data-line={r.line}>
                      <td class="num">{r.line}</td>
                      <td>
                        {r.title || <span class="muted">(none)</span>}
                        {error ? <p class="error many__error">{error}</p> : null}
                      </td>
                      <td class="many__url">{r.url}</td>
                      <td>
                        {[...new Set([...r.tags, ...tags])].map((t) => (
                          <span key={t} class="tag">
                            {t}
                          </span>
                        ))}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {rows.length > SHOWN ? (
            <p class="muted small">And {counts.format(rows.length - SHOWN)} more rows, checked the same way.</p>
          ) : null}
          <Button busy={progress !== null} disabled={problems.size > 0} onClick={() => void create()}>
            {rows.length === 1 ? 'Create 1 code' : `Create ${counts.format(rows.length)} codes`}
          </Button>
          <p class="transfer__progress" role="status">
            {progress !== null ? `Created ${counts.format(progress)} of ${counts.format(rows.length)}…` : ''}
          </p>
          {progress !== null ? <progress class="many__progress" max={rows.length} value={progress} aria-hidden="true" /> : null}
        </section>
      ) : null}
      {outcome?.kind === 'refused' ? (
        <div class="card" role="alert">
          <p class="form-error">
            {outcome.message ??
              `${outcome.byLine.size + outcome.more === 1 ? '1 row needs' : `${outcome.byLine.size + outcome.more} rows need`} fixing: they are marked above${outcome.more > 0 ? ` (the server named the first ${outcome.byLine.size})` : ''}.`}{' '}
            Nothing of that batch was created.
          </p>
          {outcome.created > 0 ? (
            <p>The first {counts.format(outcome.created)} rows were created already: remove them before you try again.</p>
          ) : null}
        </div>
      ) : null}
      {outcome?.kind === 'done' ? (
        <p class="notice notice--success">
          Created {outcome.created === 1 ? '1 code' : `${counts.format(outcome.created)} codes`}.{' '}
          <Link href={listTag ? `/codes?tag=${encodeURIComponent(listTag)}` : '/codes'}>See them in your codes</Link>
          {listTag ? (
            <>
              {' '}
              or <Link href={`/codes/transfer?tag=${encodeURIComponent(listTag)}`}>export their images</Link>
            </>
          ) : null}
          .
        </p>
      ) : null}
    </AppLayout>
  );
}
