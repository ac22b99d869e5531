// The live preview: drawn in the browser by the server's renderer (the renderer chunk loads
// on first use), then decoded at phone size by the scan check, beside the warnings the API
// gives for the same design. Stale results are dropped: only the newest design is shown.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { announce } from '../../components/announce.ts';
import type { QrDesign } from '../../../src/domain/design/design-schema.ts';
import type { ScanResult } from './scan-check.ts';
import { useAppState } from '../../store.ts';
import zxingWasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';

type Renderer = typeof import('./browser-renderer.ts');
let rendererChunk: Promise<Renderer> | null = null;
/** The renderer chunk, fetched once; the studio starts it as soon as it mounts. */
export function loadRenderer(): Promise<Renderer> {
  rendererChunk ??= import('./browser-renderer.ts');
  return rendererChunk;
}
let scanChunk: Promise<typeof import('./scan-check.ts')> | null = null;
function loadScanCheck(): Promise<typeof import('./scan-check.ts')> {
  if (!scanChunk) {
    // The WebAssembly beside the chunk that asks for it, not after it: a round trip less.
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

/**
 * The SVG as a data: URL: a blob: URL costs a round trip to the browser process before the image
 * loads, a data: URL loads in the page (docs/performance.md). Only what a data URL cannot hold as
 * written is escaped, so a logo's base64 stays as it is.
 */
function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${svg.replace(/[%#\r\n]|[^\x00-\x7f]+/g, encodeURIComponent)}`;
}

type Scan = { state: 'checking' } | { state: 'done'; result: ScanResult } | { state: 'failed'; message: string };

export interface PreviewProps {
  /** What the code encodes: the short link. */
  data: string;
  design: QrDesign;
  /** Problems that stop drawing (the API would refuse the design). */
  blocked: boolean;
  title: string;
}

export function PreviewPanel({ data, design, blocked, title }: PreviewProps) {
  const [svg, setSvg] = useState<{ url: string; ms: number } | null>(null);
  const [warnings, setWarnings] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [scan, setScan] = useState<Scan>({ state: 'checking' });
  const turn = useRef(0);
  /** The design the page opened with: its warnings are on screen, not news. */
  const opened = useRef(design);
  const said = useRef('');

  // A layout effect starts drawing right after the change is committed; a plain effect would
  // wait for the next frame first, so the new preview would show a frame later.
  useLayoutEffect(() => {
    if (blocked) return;
    const mine = ++turn.current;
    let scanTimer: ReturnType<typeof setTimeout> | undefined;
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
        scanTimer = setTimeout(() => {
          void (async () => {
            try {
              const result = await (await loadScanCheck()).scanCheck(out.svg, data);
              if (mine === turn.current) setScan({ state: 'done', result });
            } catch (err) {
              if (mine === turn.current) setScan({ state: 'failed', message: err instanceof Error ? err.message : String(err) });
            }
          })();
        }, 250);
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
  const health = blocked
    ? 'Fix the marked design options to update the preview.'
    : warnings.length > 0
      ? `Phones may fail to scan this design: ${warnings.join(' ')}`
      : '';
  useEffect(() => {
    if (health !== said.current && health !== '' && design !== opened.current) announce(health);
    said.current = health;
  }, [health]);

  return (
    <section class="preview card" aria-labelledby="preview-h">
      <h2 id="preview-h">Preview</h2>
      <figure class="preview__figure" data-render-ms={svg ? svg.ms.toFixed(3) : undefined} aria-busy={svg ? undefined : 'true'}>
        {svg ? (
          <img class="preview__img" src={svg.url} alt={`QR code for ${title || 'this code'}, as it will print`} />
        ) : (
          <div class="preview__placeholder">Drawing…</div>
        )}
        {svg ? (
          <figcaption class="muted small">
            Drawn in your browser in {svg.ms < 1 ? '<1' : Math.round(svg.ms)} ms by the same renderer as the server.
          </figcaption>
        ) : null}
      </figure>
      {blocked ? <p class="notice notice--warning">Fix the marked design options to update the preview.</p> : null}
      {error ? (
        <p class="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <ScanStatus scan={scan} hidden={!svg || blocked || error !== null} />
      {warnings.length > 0 ? (
        <div class="notice notice--warning" id="design-warnings">
          <p>
            <strong>Phones may fail to scan this design:</strong>
          </p>
          <ul>
            {warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

function ScanStatus({ scan, hidden }: { scan: Scan; hidden: boolean }) {
  const { instance } = useAppState();
  if (hidden) return null;
  // It scans, but the address it leads to is one a phone cannot open (loopback or private).
  const unreachable = instance?.publicAddress.warning
    ? ' But a phone cannot open it yet: the public address is not reachable from the internet.'
    : '';
  let cls = 'scan';
  let text: string;
  if (scan.state === 'checking') text = 'Scan check: reading the code at phone size…';
  else if (scan.state === 'failed') text = `Scan check could not run: ${scan.message}`;
  else if (scan.result.ok) {
    cls += ' scan--ok';
    text = `Scans: read at phone size, it leads to the short link.${unreachable}`;
    if (unreachable) cls += ' scan--warn';
  } else if (scan.result.reason === 'wrong-text') {
    cls += ' scan--bad';
    text = `Does not scan right: it reads “${scan.result.text ?? ''}” instead of the short link.`;
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
