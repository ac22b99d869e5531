// Static codes (issue #32): Wi-Fi, contact, text, email and phone codes whose image holds the
// content itself, so a phone reads it offline ("Join network" without mobile data). Made from
// the studio's own content forms, design panel, preview and scan check; the image comes from
// POST /v1/qr/preview (PNG, SVG or a PDF in millimetres) and nothing is stored: no short link,
// no scans, no changing it once printed, and the page says so before anything else.
import './studio.css';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { DEFAULT_DESIGN, LIMITS, type QrDesign } from '../../../src/domain/design/design-schema.ts';
import { titleSlug } from '../../../src/domain/qr-items/title-slug.ts';
import { ApiError, api } from '../../api.ts';
import { announce } from '../../components/announce.ts';
import { Field } from '../../components/field.tsx';
import { AppLayout } from '../../components/layout.tsx';
import { Link } from '../../router.ts';
import { saveFile } from '../codes/save-file.ts';
import { type Content, type FieldName, checkContent, emptyFields } from './content-model.ts';
import { ContentPanel } from './content-panel.tsx';
import { BUILT_IN_DESIGNS } from './design-file.ts';
import { DesignPanel } from './design-groups.tsx';
import { PreviewPanel, loadRenderer, usePreview } from './preview-panel.tsx';
import { type Checker, designErrors as designErrorsOf } from './use-draft-checks.ts';

type StaticKind = 'wifi' | 'vcard' | 'text' | 'email' | 'phone';
const KINDS: ReadonlyArray<{ kind: StaticKind; label: string }> = [
  { kind: 'wifi', label: 'Wi-Fi' },
  { kind: 'vcard', label: 'Contact' },
  { kind: 'text', label: 'Text' },
  { kind: 'email', label: 'Email' },
  { kind: 'phone', label: 'Phone' },
];

/** Drawn until the fields make a payload, so the design can be seen from the start. */
const SAMPLES: Record<StaticKind, string> = {
  wifi: 'WIFI:T:WPA;S:Network;P:password;;',
  vcard: 'BEGIN:VCARD\r\nVERSION:3.0\r\nN:Doe;Jo;;;\r\nFN:Jo Doe\r\nEND:VCARD\r\n',
  text: 'Hello',
  email: 'mailto:hello@example.com',
  phone: 'tel:+441234567890',
};

const PNG_SIZES = [500, 1000, 1500, 2000, 2500] as const;
const PDF_MM = LIMITS.pdfWidthMm;

/** A phone number as a `tel:` link: digits with an optional leading +, spaces and punctuation dropped. */
function phonePayload(raw: string): { payload: string | null; error?: string } {
  const t = raw.trim();
  if (t === '') return { payload: null, error: 'Enter the phone number' };
  if (!/^\+?[0-9 ()./-]+$/.test(t)) return { payload: null, error: 'Digits, spaces and + ( ) - . only, e.g. +44 20 7946 0958' };
  const digits = t.replace(/[^0-9+]/g, '');
  if (digits.replace('+', '').length < 3 || digits.length > 20) return { payload: null, error: 'Between 3 and 20 digits' };
  return { payload: `tel:${digits}` };
}

export default function StaticPage() {
  const [kind, setKind] = useState<StaticKind>('wifi');
  const [content, setContent] = useState<Content>({ kind: 'wifi', fields: emptyFields(), raw: null });
  const [phone, setPhone] = useState('');
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [design, setDesign] = useState<QrDesign>({ ...DEFAULT_DESIGN });
  const [name, setName] = useState('');
  const [checker, setChecker] = useState<Checker | null>(null);
  useEffect(() => void loadRenderer().then(setChecker), []);

  const check = useMemo(() => checkContent(content), [content]);
  const phoneCheck = phonePayload(phone);
  const payload = kind === 'phone' ? phoneCheck.payload : check.payload;
  const designErrors = useMemo(() => designErrorsOf(design, checker), [design, checker]);
  const designBlocked = Object.keys(designErrors).length > 0;
  const preview = usePreview(payload ?? SAMPLES[kind], design, designBlocked);
  const pick = (k: StaticKind) => {
    setKind(k);
    if (k !== 'phone') setContent({ ...content, kind: k });
  };

  return (
    <AppLayout title="Static code">
      <p class="crumbs">
        <Link href="/codes">Codes</Link> › Static code
      </p>
      <div class="notice notice--warning static-warning" id="static-warning">
        <p>
          <strong>Not tracked, cannot be changed after printing.</strong> The code holds the content itself: a phone reads it without going
          online (a Wi-Fi code offers to join the network offline), but no scan is counted, nothing is kept here, and a printed code shows
          what it holds for good.
        </p>
        <p>
          To change where a code leads after printing, or to count its scans, make a <Link href="/codes/new">tracked code</Link> instead.
        </p>
      </div>
      <div class="studio studio--static">
        <div class="studio__edit">
          <section class="card" aria-labelledby="static-kind-h">
            <h2 id="static-kind-h">What it holds</h2>
            <div class="kind-tabs static-kinds" role="radiogroup" aria-labelledby="static-kind-h">
              {KINDS.map((k) => (
                <label key={k.kind} class="kind-tabs__tab static-kinds__option">
                  <input
                    type="radio"
                    name="static-kind"
                    value={k.kind}
                    checked={kind === k.kind}
                    onChange={() => pick(k.kind)}
                    class="static-kinds__input"
                  />
                  {k.label}
                </label>
              ))}
            </div>
          </section>
          {kind === 'phone' ? (
            <section class="card" aria-labelledby="phone-h">
              <h2 id="phone-h">Content</h2>
              <Field
                label="Phone number"
                name="phone"
                type="text"
                autocomplete="tel"
                required
                value={phone}
                hint="With the country code, e.g. +44 20 7946 0958: the phone offers to call it"
                error={touched.has('phone') ? phoneCheck.error : undefined}
                onInput={(v) => (setPhone(v), setTouched(new Set([...touched, 'phone'])))}
              />
              {payload ? (
                <p class="destination">
                  <span class="muted">The code holds:</span> <code>{payload}</code>
                </p>
              ) : null}
            </section>
          ) : (
            <ContentPanel
              content={content}
              check={check}
              shown={(f) => touched.has(f)}
              readOnly={false}
              tabs={false}
              onChange={(c, f: FieldName | 'payload' | null) => {
                setContent(c);
                if (f) setTouched(new Set([...touched, f]));
              }}
            />
          )}
          <section class="card" aria-labelledby="design-h">
            <h2 id="design-h">Design</h2>
            <div class="field">
              <label for="static-start">Start from</label>
              <select
                id="static-start"
                onChange={(e) => {
                  const d = BUILT_IN_DESIGNS[Number(e.currentTarget.value)];
                  if (d) setDesign({ ...d.design });
                }}
              >
                {BUILT_IN_DESIGNS.map((d, i) => (
                  <option key={d.name} value={i}>
                    {d.name}
                  </option>
                ))}
              </select>
            </div>
            <DesignPanel design={design} errors={designErrors} set={(patch) => setDesign({ ...design, ...patch })} />
          </section>
        </div>
        <div class="studio__side">
          <PreviewPanel preview={preview} title={name} holds={payload ? 'what you entered' : 'the sample content'} />
          {payload === null ? <p class="notice static-sample">The preview shows sample content until the fields are filled in.</p> : null}
          <StaticDownloads payload={payload} design={design} name={name} setName={setName} blocked={designBlocked} />
        </div>
      </div>
    </AppLayout>
  );
}

function StaticDownloads({
  payload,
  design,
  name,
  setName,
  blocked,
}: {
  payload: string | null;
  design: QrDesign;
  name: string;
  setName: (n: string) => void;
  blocked: boolean;
}) {
  const [size, setSize] = useState<number>(1000);
  const [mm, setMm] = useState(String(PDF_MM.default));
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<{ text: string; error?: boolean } | null>(null);
  const widthMm = Number(mm);
  const mmOk = mm.trim() !== '' && Number.isFinite(widthMm) && widthMm >= PDF_MM.min && widthMm <= PDF_MM.max;
  const ready = payload !== null && !blocked;
  const download = async (format: 'png' | 'svg' | 'pdf') => {
    if (!payload) return;
    setBusy(format);
    setMessage(null);
    try {
      const blob = await api.staticImage(format, payload, design, format === 'png' ? size : format === 'pdf' ? widthMm : undefined);
      const file = `${titleSlug(name) || 'static-qr-code'}.${format}`;
      saveFile(blob, file);
      setMessage({ text: `Downloaded ${file}.` });
      announce(`Downloaded ${file}.`);
    } catch (err) {
      setMessage({ text: err instanceof ApiError ? err.message : 'The image could not be made. Try again.', error: true });
    } finally {
      setBusy(null);
    }
  };
  return (
    <section class="card downloads" aria-labelledby="static-downloads-h">
      <h2 id="static-downloads-h">Download</h2>
      <p class="small static-downloads__label">
        <strong>Static: not tracked, cannot be changed after printing.</strong>
      </p>
      {ready ? null : <p class="muted small">{payload === null ? 'Fill in the content first.' : 'Fix the marked design options first.'}</p>}
      <Field label="File name" name="static-name" value={name} hint="Names the downloaded files; not in the code" onInput={setName} />
      <div class="field">
        <label for="static-png-size">PNG width</label>
        <select id="static-png-size" value={size} onChange={(e) => setSize(Number(e.currentTarget.value))}>
          {PNG_SIZES.map((s) => (
            <option key={s} value={s}>
              {s} px
            </option>
          ))}
        </select>
      </div>
      <div class="button-row">
        <button
          type="button"
          class="btn btn--primary"
          id="static-png"
          disabled={!ready || busy !== null}
          onClick={() => void download('png')}
        >
          Download PNG
        </button>
        <button
          type="button"
          class="btn btn--secondary"
          id="static-svg"
          disabled={!ready || busy !== null}
          onClick={() => void download('svg')}
        >
          Download SVG
        </button>
      </div>
      <div class={`field downloads__pdf${mmOk ? '' : ' field--invalid'}`}>
        <label for="static-pdf-mm">PDF width (mm)</label>
        <p class="hint" id="static-pdf-mm-hint">
          For print: vector, exact size. {PDF_MM.min} to {PDF_MM.max} mm
        </p>
        <div class="downloads__pdf-row">
          <input
            id="static-pdf-mm"
            type="number"
            min={PDF_MM.min}
            max={PDF_MM.max}
            step="any"
            value={mm}
            aria-describedby="static-pdf-mm-hint"
            aria-invalid={mmOk ? undefined : 'true'}
            onInput={(e) => setMm(e.currentTarget.value)}
          />
          <button
            type="button"
            class="btn btn--secondary"
            id="static-pdf"
            disabled={!ready || !mmOk || busy !== null}
            onClick={() => void download('pdf')}
          >
            Download PDF
          </button>
        </div>
      </div>
      <p class={message?.error ? 'form-error' : 'muted small'} role="status">
        {message?.text ?? ''}
      </p>
    </section>
  );
}
