// Import and export (issue #32): the account's codes out as CSV or JSON, their images as a
// ZIP, read here with progress so a big export is seen to move; codes in from a CSV file, all
// or nothing, with the line the server refused, quoted from the file. The list's filters
// (in the address) preselect what is exported.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, type ExportFilter, type TagCount, api } from '../../api.ts';
import { announce } from '../../components/announce.ts';
import { AppLayout } from '../../components/layout.tsx';
import { Button, Notice } from '../../components/ui.tsx';
import { Link, useSearch } from '../../router.ts';
import { can, useAppState } from '../../store.ts';
import { kindLabel, parseQuery, queryString } from './codes-query.ts';
import { formatBytes, saveFile } from './save-file.ts';
import './codes.css';

type ExportKind = 'csv' | 'json' | 'zip-png' | 'zip-svg';
const EXPORTS: ReadonlyArray<{ value: ExportKind; label: string; hint: string }> = [
  { value: 'csv', label: 'Codes as CSV', hint: 'One row per code with its short link, scans and design; imports back as is' },
  { value: 'json', label: 'Codes as JSON', hint: 'Every field of every code, as the API gives them' },
  {
    value: 'zip-png',
    label: 'Images as a ZIP of PNG files',
    hint: 'One image per code, at its design’s resolution, named after its title',
  },
  { value: 'zip-svg', label: 'Images as a ZIP of SVG files', hint: 'Vector images, for print shops and design tools' },
];

export default function TransferPage() {
  const { session } = useAppState();
  const canEdit = can(session, 'write');
  const search = useSearch();
  const query = useMemo(() => parseQuery(search), [search]);
  const [tags, setTags] = useState<TagCount[]>([]);
  useEffect(() => void api.tags().then(setTags, () => undefined), []);
  return (
    <AppLayout title="Import & export">
      <p class="crumbs">
        <Link href={`/codes${queryString(query)}`}>Codes</Link> › Import & export
      </p>
      <ExportPanel filter={{ q: query.q || undefined, contentType: query.kind || undefined, tag: query.tag || undefined }} tags={tags} />
      {canEdit ? <ImportPanel /> : <Notice>Your role lets you export codes, not import them. Ask an owner to make you an editor.</Notice>}
    </AppLayout>
  );
}

function ExportPanel({ filter: fromList, tags }: { filter: ExportFilter; tags: TagCount[] }) {
  const [kind, setKind] = useState<ExportKind>('csv');
  const [tag, setTag] = useState(fromList.tag ?? '');
  const [progress, setProgress] = useState<string | null>(null);
  const [result, setResult] = useState<{ text: string; error?: boolean } | null>(null);
  const filter: ExportFilter = { ...fromList, tag: tag || undefined };
  const run = async () => {
    setResult(null);
    setProgress('Starting…');
    try {
      const what =
        kind === 'csv' || kind === 'json'
          ? { format: kind }
          : { format: 'zip' as const, images: kind === 'zip-png' ? ('png' as const) : ('svg' as const) };
      const blob = await api.exportCodes(what, filter, (received, total) =>
        setProgress(total === null ? `${formatBytes(received)} received…` : `${formatBytes(received)} of ${formatBytes(total)} received…`),
      );
      const name = `qr-codes${
        tag
          ? `-${tag
              .replace(/[^\p{L}\p{N}]+/gu, '-')
              .replace(/^-|-$/g, '')
              .toLowerCase()}`
          : ''
      }.${kind === 'csv' ? 'csv' : kind === 'json' ? 'json' : 'zip'}`;
      saveFile(blob, name);
      const text = `Exported ${name} (${formatBytes(blob.size)}).`;
      setResult({ text });
      announce(text);
    } catch (err) {
      setResult({ text: err instanceof ApiError ? err.message : 'The export did not finish. Try again.', error: true });
    } finally {
      setProgress(null);
    }
  };
  const narrowed = [fromList.q ? `matching “${fromList.q}”` : '', fromList.contentType ? `of kind ${kindLabel(fromList.contentType)}` : '']
    .filter(Boolean)
    .join(', ');
  return (
    <section class="card transfer" aria-labelledby="export-h">
      <h2 id="export-h">Export</h2>
      <fieldset class="field">
        <legend>What</legend>
        {EXPORTS.map((e) => (
          <label key={e.value} class="check">
            <input type="radio" name="export-kind" value={e.value} checked={kind === e.value} onChange={() => setKind(e.value)} />
            <span>
              {e.label}
              <span class="hint transfer__hint">{e.hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div class="field">
        <label for="export-tag">Which codes</label>
        {narrowed ? (
          <p class="hint" id="export-tag-hint">
            Only codes {narrowed}, as the list was filtered.
          </p>
        ) : null}
        <select
          id="export-tag"
          value={tag}
          aria-describedby={narrowed ? 'export-tag-hint' : undefined}
          onChange={(e) => setTag(e.currentTarget.value)}
        >
          <option value="">Every code</option>
          {tags.map((t) => (
            <option key={t.name} value={t.name}>
              Tagged “{t.name}” ({t.count})
            </option>
          ))}
          {tag && !tags.some((t) => t.name === tag) ? <option value={tag}>Tagged “{tag}”</option> : null}
        </select>
      </div>
      <Button busy={progress !== null} onClick={() => void run()}>
        Export
      </Button>
      <p class="transfer__progress" role="status">
        {progress ?? ''}
      </p>
      {result ? <p class={result.error ? 'form-error' : 'notice notice--success'}>{result.text}</p> : null}
    </section>
  );
}

/** What the server said of a refused import, with the line it names quoted from the file. */
interface ImportReport {
  message: string;
  line: number | null;
  text: string | null;
}

function reportOf(raw: string, csv: string): ImportReport {
  const m = /^line (\d+): (.+)$/s.exec(raw);
  if (!m) return { message: raw, line: null, text: null };
  const line = Number(m[1]);
  return { message: capitalise(m[2] as string), line, text: csv.split(/\r?\n/)[line - 1] ?? null };
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function ImportPanel() {
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<string | null>(null);
  const [created, setCreated] = useState<number | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const run = async () => {
    if (!file) return;
    setCreated(null);
    setReport(null);
    setProgress('Reading the file…');
    const csv = await file.text();
    try {
      const out = await api.importCodes(csv, (sent, total) =>
        setProgress(
          sent < total ? `Sending: ${formatBytes(sent)} of ${formatBytes(total)}…` : 'Checking every row and creating the codes…',
        ),
      );
      setCreated(out.created);
      announce(`Imported ${out.created === 1 ? '1 code' : `${out.created} codes`}.`);
    } catch (err) {
      const r = reportOf(err instanceof ApiError ? err.message : 'The import did not finish. Try again.', csv);
      setReport(r);
      announce(`Nothing was imported. ${r.line === null ? '' : `Line ${r.line}: `}${r.message}`);
    } finally {
      setProgress(null);
    }
  };
  return (
    <section class="card transfer" aria-labelledby="import-h">
      <h2 id="import-h">Import from CSV</h2>
      <p class="hint">
        A header row, then one code a row: <code>title</code> (required), <code>url</code> or another kind’s fields, design options and{' '}
        <code>tags</code> (separated by |). A file exported here imports as is. Every row is checked first: one bad row and nothing is
        created. For a few rows typed or pasted, use <Link href="/codes/many">Create many</Link>.
      </p>
      <div class="field">
        <label for="import-file">CSV file</label>
        <input
          id="import-file"
          type="file"
          accept=".csv,text/csv"
          onChange={(e) => {
            setFile(e.currentTarget.files?.[0] ?? null);
            setReport(null);
            setCreated(null);
          }}
        />
      </div>
      <Button busy={progress !== null} disabled={!file} onClick={() => void run()}>
        Import
      </Button>
      <p class="transfer__progress" role="status">
        {progress ?? ''}
      </p>
      {created !== null ? (
        <p class="notice notice--success">
          Imported {created === 1 ? '1 code' : `${created} codes`}. <Link href="/codes">See them in your codes</Link>
        </p>
      ) : null}
      {report ? (
        <div class="import-report" role="alert">
          <p class="form-error">Nothing was imported: every row must be right first.</p>
          <table class="import-report__table">
            <caption class="visually-hidden">What to fix</caption>
            <thead>
              <tr>
                <th scope="col">Line</th>
                <th scope="col">Problem</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <td class="num">{report.line ?? '–'}</td>
                <td>
                  {report.message}
                  {report.text !== null ? (
                    <span class="import-report__line">
                      <span class="visually-hidden">Line {report.line} reads: </span>
                      <code>{report.text}</code>
                    </span>
                  ) : null}
                </td>
              </tr>
            </tbody>
          </table>
          <p class="hint">The server stops at the first broken row: fix it and import again to check the rest.</p>
        </div>
      ) : null}
    </section>
  );
}
