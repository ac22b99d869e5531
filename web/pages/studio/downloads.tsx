// Getting the code out: PNG at a chosen size, SVG, and a print-ready PDF at a width in
// millimetres, straight from the server (exactly what image.png, image.svg and image.pdf give), the image to the clipboard, the short link to the clipboard.
// Files are named after the title.
import { useState } from 'preact/hooks';
import { LIMITS } from '../../../src/domain/design/design-schema.ts';
import { api, type QrItem } from '../../api.ts';
import { fileNameOf } from './design-file.ts';

const SIZES = [500, 1000, 1500, 2000, 2500] as const;
const PDF_MM = LIMITS.pdfWidthMm;

export function Downloads({ item, dirty }: { item: QrItem; dirty: boolean }) {
  const [size, setSize] = useState<number>(item.design.resolution);
  const [mm, setMm] = useState(String(PDF_MM.default));
  const widthMm = Number(mm);
  const mmOk = mm.trim() !== '' && Number.isFinite(widthMm) && widthMm >= PDF_MM.min && widthMm <= PDF_MM.max;
  const [status, setStatus] = useState('');
  const sizes = [...new Set([...SIZES, item.design.resolution])].sort((a, b) => a - b);
  const copyImage = async () => {
    try {
      const res = await fetch(api.codeImageUrl(item.id, 'png', size), { credentials: 'same-origin' });
      if (!res.ok) throw new Error(String(res.status));
      await navigator.clipboard.write([new ClipboardItem({ 'image/png': await res.blob() })]);
      setStatus('Image copied to the clipboard.');
    } catch {
      setStatus('The browser did not allow copying the image; download it instead.');
    }
  };
  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(item.shortUrl);
      setStatus('Short link copied to the clipboard.');
    } catch {
      setStatus('The browser did not allow copying; select the link and copy it.');
    }
  };
  return (
    <section class="card downloads" aria-labelledby="downloads-h">
      <h2 id="downloads-h">Download</h2>
      {dirty ? <p class="notice notice--warning">Downloads give the saved code. Save your changes to download them.</p> : null}
      <div class="field">
        <label for="download-size">PNG width</label>
        <p class="hint" id="download-size-hint">
          {LIMITS.resolution.min} to {LIMITS.resolution.max} px
        </p>
        <select
          id="download-size"
          aria-describedby="download-size-hint"
          value={size}
          onChange={(e) => setSize(Number(e.currentTarget.value))}
        >
          {sizes.map((s) => (
            <option key={s} value={s}>
              {s} px{s === item.design.resolution ? ' (the design’s resolution)' : ''}
            </option>
          ))}
        </select>
      </div>
      <div class="button-row">
        <a
          class="btn btn--primary"
          id="download-png"
          href={api.codeImageUrl(item.id, 'png', size)}
          download={fileNameOf(item.title, 'png', `qr-${item.code}`)}
        >
          Download PNG
        </a>
        <a
          class="btn btn--secondary"
          id="download-svg"
          href={api.codeImageUrl(item.id, 'svg')}
          download={fileNameOf(item.title, 'svg', `qr-${item.code}`)}
        >
          Download SVG
        </a>
      </div>
      <div class={`field downloads__pdf${mmOk ? '' : ' field--invalid'}`}>
        <label for="download-pdf-mm">PDF width (mm)</label>
        <p class="hint" id="download-pdf-mm-hint">
          For print: vector, exact size. {PDF_MM.min} to {PDF_MM.max} mm; the height follows the frame
        </p>
        <div class="downloads__pdf-row">
          <input
            id="download-pdf-mm"
            type="number"
            inputMode="decimal"
            min={PDF_MM.min}
            max={PDF_MM.max}
            step="any"
            value={mm}
            aria-describedby={`download-pdf-mm-hint${mmOk ? '' : ' download-pdf-mm-error'}`}
            aria-invalid={mmOk ? undefined : 'true'}
            onInput={(e) => setMm(e.currentTarget.value)}
          />
          {mmOk ? (
            <a
              class="btn btn--secondary"
              id="download-pdf"
              href={api.codePdfUrl(item.id, widthMm)}
              download={fileNameOf(item.title, 'pdf', `qr-${item.code}`)}
            >
              Download PDF
            </a>
          ) : null}
        </div>
        {mmOk ? null : (
          <p class="error" id="download-pdf-mm-error">
            Must be a number of millimetres between {PDF_MM.min} and {PDF_MM.max}
          </p>
        )}
      </div>
      <div class="button-row">
        <button type="button" class="btn btn--secondary" onClick={() => void copyImage()}>
          Copy image
        </button>
        <button type="button" class="btn btn--secondary" onClick={() => void copyLink()}>
          Copy short link
        </button>
      </div>
      <p class="visually-hidden" aria-live="polite">
        {status}
      </p>
      {status ? <p class="muted small">{status}</p> : null}
    </section>
  );
}
