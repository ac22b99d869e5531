// The live preview: drawn in the browser by the server's renderer (the renderer chunk loads
// on first use), then decoded at phone size by the scan check, beside the warnings the API
// gives for the same design. Stale results are dropped: only the newest design is shown.
// Opened cold on "New code", the server's drawing of the default design is already in the page
// (first-paint.ts): it is shown and checked as it is, and the renderer comes after the check.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { announce } from '../../components/announce.ts';
import type { QrDesign } from '../../../src/domain/design/design-schema.ts';
import { svgDataUrl } from '../../../src/render/svg-data-url.ts';
import type { ScanResult } from './scan-check.ts';
import { useAppState } from '../../store.ts';
import { releaseRenderer, rendererMayLoad, takeServerPreview } from './first-paint.ts';
import zxingWasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';

export { svgDataUrl };

type Renderer = typeof import('./browser-renderer.ts');
let rendererChunk: Promise<Renderer> | null = null;
/** The renderer chunk, fetched once (now: something is to be drawn or checked). */
export function loadRenderer(): Promise<Renderer> {
  releaseRenderer();
  rendererChunk ??= import('./browser-renderer.ts');
  return rendererChunk;
}
/** The renderer chunk, once the page's first scan check no longer needs the line (first-paint.ts). */
export function loadRendererSoon(): Promise<Renderer> {
  return rendererMayLoad().then(loadRenderer);
}
let scanChunk: Promise<typeof import('./scan-check.ts')> | null = null;
function loadScanCheck(): Promise<typeof import('./scan-check.ts')> {
  if (!scanChunk) {
    // The WebAssembly beside the chunk that asks for it, not after it: a round trip less (the
    // page itself may already have asked for both: the browser then reuses that fetch).
    const preload = Object.assign(document.createElement('link'), {
      rel: 'preload',
      as: 'fetch',
      href: zxingWasmUrl,
      crossOrigin: 'anonymous',
    });
    document.head.append(preload);
    scanChunk = import('./scan-check.ts');
  }
  return scanChunk;
}

type Scan = { state: 'checking' } | { state: 'done'; result: ScanResult } | { state: 'failed'; message: string };

/** The newest preview of the draft, shared by the panel and the mini preview that follows the form on a phone. */
export interface Preview {
  /** `ms`: the time renderSvg took in the browser; null for the server's drawing the page arrived with. */
  svg: { url: string; ms: number | null } | null;
  /** The same sentences the API answers in `warnings` for this design. */
  warnings: string[];
  error: string | null;
  scan: Scan;
  /** Problems that stop drawing (the API would refuse the design). */
  blocked: boolean;
}

/**
 * Draws `design` for `data` (the short link) as it changes, then checks that it scans; says
 * aloud what an edit did to the design's health.
 */
export function usePreview(data: string, design: QrDesign | null, blocked: boolean): Preview {
  const [server] = useState(() => (design === null || blocked ? null : takeServerPreview(data, design)));
  const [svg, setSvg] = useState<{ url: string; ms: number | null } | null>(server && { url: server.url, ms: null });
  const [warnings, setWarnings] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [scan, setScan] = useState<Scan>({ state: 'checking' });
  const turn = useRef(0);
  /** The design the page opened with (null while the code is read): its warnings are on screen, not news. */
  const opened = useRef(design);
  opened.current ??= design;
  const said = useRef('');

  // A layout effect starts drawing right after the change is committed; a plain effect would
  // wait for the next frame first, so the new preview would show a frame later.
  useLayoutEffect(() => {
    if (blocked || design === null) return;
    const mine = ++turn.current;
    let scanTimer: ReturnType<typeof setTimeout> | undefined;
    const check = (drawn: string, delay: number) => {
      scanTimer = setTimeout(() => {
        void (async () => {
          try {
            const result = await (await loadScanCheck()).scanCheck(drawn, data);
            if (mine === turn.current) setScan({ state: 'done', result });
          } catch (err) {
            if (mine === turn.current) setScan({ state: 'failed', message: err instanceof Error ? err.message : String(err) });
          } finally {
            if (mine === 1) releaseRenderer();
          }
        })();
      }, delay);
    };
    // The server's drawing of this very design is on screen (its warnings, none, too): checked at once.
    if (mine === 1 && server !== null) {
      check(server.svg, 0);
      return () => clearTimeout(scanTimer);
    }
    void (async () => {
      try {
        const r = await loadRenderer();
        const out = await r.renderPreview(data, design);
        if (mine !== turn.current) return;
        setSvg({ url: svgDataUrl(out.svg), ms: out.ms });
        setWarnings(out.warnings);
        setError(null);
        setScan({ state: 'checking' });
        // Decoding takes longer than drawing: wait until the edits pause.
        check(out.svg, 250);
      } catch (err) {
        if (mine === turn.current) setError(err instanceof Error ? err.message : String(err));
      }
    })();
    return () => clearTimeout(scanTimer);
  }, [data, design, blocked]);

  // The decoder (a third of a megabyte of WebAssembly, brotli) starts loading once the first
  // preview is on screen, not before: on mobile data it would share the line with the renderer
  // and hold the preview back. An effect runs after the paint. A failure shows at the check.
  const shown = svg !== null;
  useEffect(() => {
    if (shown)
      void loadScanCheck().then(
        (m) => m.warmUp(),
        () => undefined,
      );
  }, [shown]);

  // What an edit did to the design's health is said aloud when it changes (a colour of low
  // contrast, a value the preview cannot draw), once: the notices are beside, not at, the
  // control being edited, and off-screen on a phone.
  const health =
    design === null
      ? ''
      : blocked
        ? 'Fix the marked design options to update the preview.'
        : warnings.length > 0
          ? `Phones may fail to scan this design: ${warnings.join(' ')}`
          : '';
  useEffect(() => {
    if (health !== said.current && health !== '' && design !== opened.current) announce(health);
    said.current = health;
  }, [health]);

  return { svg, warnings, error, scan, blocked };
}

export interface PreviewProps {
  preview: Preview;
  title: string;
  /** Told whether the drawn preview is on screen (the mini preview stands in for it when not). */
  onInView?: (inView: boolean) => void;
  /** What a right reading gives, for the scan check's sentence; a static code holds its content. */
  holds?: string;
}

const SHORT_LINK = 'the short link';

export function PreviewPanel({ preview, title, onInView, holds = SHORT_LINK }: PreviewProps) {
  const { svg, warnings, error, scan, blocked } = preview;
  const figure = useRef<HTMLElement>(null);
  useEffect(() => {
    const el = figure.current;
    if (!el || !onInView || typeof IntersectionObserver === 'undefined') return;
    // In view while a fair part of the image shows: a sliver at the top of the screen is no preview.
    const watch = new IntersectionObserver(([entry]) => onInView(entry?.isIntersecting ?? true), { threshold: 0.35 });
    watch.observe(el);
    return () => watch.disconnect();
  }, []);

  return (
    <section class="preview card" aria-labelledby="preview-h">
      <h2 id="preview-h">Preview</h2>
      <figure
        ref={figure}
        class="preview__figure"
        data-render-ms={svg?.ms != null ? svg.ms.toFixed(3) : undefined}
        aria-busy={svg ? undefined : 'true'}
      >
        {svg ? (
          <img class="preview__img" src={svg.url} elementtiming="preview" alt={`QR code for ${title || 'this code'}, as it will print`} />
        ) : (
          <div class="preview__placeholder">Drawing…</div>
        )}
      </figure>
      {blocked ? <p class="notice notice--warning">Fix the marked design options to update the preview.</p> : null}
      {error ? (
        <p class="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <ScanStatus scan={scan} hidden={!svg || blocked || error !== null} holds={holds} />
      {warnings.length > 0 ? <DesignWarnings warnings={warnings} /> : null}
      {/* Last: the verdict matters more, and a short window shows it under the image. */}
      {svg ? (
        <p class="muted small preview__note">
          {svg.ms === null
            ? 'Drawn by the server with the renderer your browser uses for every change.'
            : `Drawn in your browser in ${svg.ms < 1 ? '<1' : Math.round(svg.ms)} ms by the same renderer as the server.`}
        </p>
      ) : null}
    </section>
  );
}

/**
 * The design's warnings, shown once (a save does not repeat them) and collapsible: a few
 * long sentences would make the side column taller than the window.
 */
function DesignWarnings({ warnings }: { warnings: string[] }) {
  return (
    <details class="notice notice--warning design-warnings" id="design-warnings" open>
      <summary>
        <strong>Phones may fail to scan this design</strong> ({warnings.length === 1 ? '1 warning' : `${warnings.length} warnings`})
      </summary>
      <ul>
        {warnings.map((w) => (
          <li key={w}>{w}</li>
        ))}
      </ul>
    </details>
  );
}

/** The verdict in a word or two, for the mini preview's button. */
function scanWord(preview: Preview): string {
  const { scan } = preview;
  if (preview.blocked || preview.error) return 'not drawn';
  if (scan.state !== 'done') return 'checking';
  return scan.result.ok ? 'scans' : 'does not scan';
}

/**
 * On a phone, while the preview has scrolled away: a thumbnail in the save bar at the bottom of
 * the screen that follows every change, with the scan check's verdict; pressed, it opens the
 * preview large above the bar. Hidden on a desktop (the preview column stays in view there).
 */
export function MiniPreview({ preview, title, away }: { preview: Preview; title: string; away: boolean }) {
  const [open, setOpen] = useState(false);
  if (!away || !preview.svg) return null;
  const word = scanWord(preview);
  const state = word === 'scans' ? 'ok' : word === 'does not scan' ? 'bad' : 'other';
  return (
    <div class="mini-preview" onKeyDown={(e) => e.key === 'Escape' && open && setOpen(false)}>
      {open ? (
        <div class="mini-preview__large" id="mini-preview-large">
          <img src={preview.svg.url} alt={`QR code for ${title || 'this code'}, as it will print`} />
          <p class="small">
            {word === 'scans'
              ? 'Scans at phone size.'
              : word === 'does not scan'
                ? 'Does not scan at phone size: see the preview at the top.'
                : ''}
            {preview.warnings.length > 0
              ? ` ${preview.warnings.length === 1 ? '1 warning' : `${preview.warnings.length} warnings`} at the top.`
              : ''}
          </p>
        </div>
      ) : null}
      <button
        type="button"
        class="mini-preview__toggle"
        aria-expanded={open}
        aria-controls="mini-preview-large"
        aria-label={`Preview, ${word}: ${open ? 'hide the large preview' : 'show it larger'}`}
        data-scan={state}
        onClick={() => setOpen(!open)}
      >
        <img src={preview.svg.url} alt="" />
        <span class="mini-preview__mark" aria-hidden="true">
          {state === 'ok' ? '✓' : state === 'bad' ? '✗' : '…'}
        </span>
      </button>
    </div>
  );
}

function ScanStatus({ scan, hidden, holds }: { scan: Scan; hidden: boolean; holds: string }) {
  const { instance } = useAppState();
  if (hidden) return null;
  // It scans, but the address it leads to is one a phone cannot open (loopback or private).
  const unreachable =
    instance?.publicAddress.warning && holds === SHORT_LINK
      ? ' But a phone cannot open it yet: the public address is not reachable from the internet.'
      : '';
  let cls = 'scan';
  let text: string;
  if (scan.state === 'checking') text = 'Scan check: reading the code at phone size…';
  else if (scan.state === 'failed') text = `Scan check could not run: ${scan.message}`;
  else if (scan.result.ok) {
    cls += ' scan--ok';
    text = `Scans: read at phone size, it ${holds === SHORT_LINK ? 'leads to' : 'holds'} ${holds}.${unreachable}`;
    if (unreachable) cls += ' scan--warn';
  } else if (scan.result.reason === 'wrong-text') {
    cls += ' scan--bad';
    text = `Does not scan right: it reads “${scan.result.text ?? ''}” instead of ${holds}.`;
  } else {
    cls += ' scan--bad';
    text =
      'Does not scan: a phone-sized reading found no code. Raise the contrast, use a darker code on a lighter background, make the logo smaller or raise the error correction.';
  }
  return (
    <p class={cls} id="scan-check" role="status" data-state={scan.state === 'done' ? (scan.result.ok ? 'ok' : 'bad') : scan.state}>
      {text}
    </p>
  );
}
