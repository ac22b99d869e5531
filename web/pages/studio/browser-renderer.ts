// The studio's renderer chunk, loaded on first use: the server's own SVG renderer (so the
// preview is byte for byte the server's image.svg), the design checks the API applies, and
// a font source and the text shaper for the browser. Font files are app assets emitted by
// Vite; a frame text's files (frameFontFilesFor) and HarfBuzz's wasm are fetched before it is drawn.
import { ValidationError } from '../../../src/domain/errors.ts';
import { type DesignPatch, normalizeDesignPatch, type QrDesign } from '../../../src/domain/design/design.ts';
import { parseLogoDataUrl } from '../../../src/domain/design/logo.ts';
import { NO_LOGOS } from '../../../src/domain/design/request-logos.ts';
import {
  createQrMatrix,
  designWarnings,
  frameFontFilesFor,
  QUIET_ZONE,
  renderSvg,
  setFontSource,
  setShaper,
} from '../../../src/render/portable.ts';

// Every face a frame text may use (Inter, and the Noto slices of packages/frame-fonts). Eager
// here means only that the URLs are in this chunk; a file loads when a text needs it.
const FONT_URLS = {
  ...import.meta.glob<string>('../../../node_modules/@fontsource/inter/files/*-700-normal.woff', {
    query: '?url',
    import: 'default',
    eager: true,
  }),
  ...import.meta.glob<string>('../../../node_modules/@qrtrack/frame-fonts/files/*.woff', { query: '?url', import: 'default', eager: true }),
};

const urlOf = new Map(
  Object.entries(FONT_URLS).map(([path, url]) => [path.slice(path.indexOf('node_modules/') + 'node_modules/'.length), url]),
);
const fonts = new Map<string, Uint8Array>();
const loading = new Map<string, Promise<void>>();
let shaper: Promise<void> | null = null;

setFontSource({ read: (file) => fonts.get(file) });

/** Fetches each file once; a failed fetch may be tried again by the next render. */
function loadFont(file: string): Promise<void> {
  let p = loading.get(file);
  if (!p) {
    p = (async () => {
      const url = urlOf.get(file);
      if (!url) throw new Error(`font ${file}: not bundled`);
      const res = await fetch(url);
      if (!res.ok) throw new Error(`font ${file}: HTTP ${res.status}`);
      fonts.set(file, new Uint8Array(await res.arrayBuffer()));
    })();
    p.catch(() => loading.delete(file));
    loading.set(file, p);
  }
  return p;
}

/** HarfBuzz (its wasm is an asset Vite emits) and the font files `text` needs. */
async function loadText(text: string): Promise<void> {
  shaper ??= import('harfbuzzjs').then(setShaper, (err: unknown) => {
    shaper = null;
    throw err;
  });
  await Promise.all([shaper, ...frameFontFilesFor(text.trim()).map(loadFont)]);
}

export interface Rendered {
  svg: string;
  /** The same sentences the API answers in `warnings` for this design. */
  warnings: string[];
  /** Milliseconds spent in renderSvg alone. */
  ms: number;
}

/** A design problem the API would refuse: the field and the message, as in a 400. */
export interface DesignProblem {
  field: string;
  message: string;
}

// Sanitizing a big SVG logo takes a while: each uploaded logo is checked once.
let lastLogo: { url: string; problem: DesignProblem | null } | null = null;

/** Checks a design as the API does (colours, logo data URL, frame text); null when fine. */
export function checkDesign(design: QrDesign): DesignProblem | null {
  const logo = design.customLogoUrl;
  if (logo !== null && lastLogo?.url !== logo)
    lastLogo = {
      url: logo,
      problem: problemOf(() => parseLogoDataUrl('customLogoUrl', logo)),
    };
  return (
    problemOf(() => normalizeDesignPatch({ ...design, customLogoUrl: null } as DesignPatch, NO_LOGOS)) ??
    (logo === null ? null : lastLogo!.problem)
  );
}

function problemOf(check: () => unknown): DesignProblem | null {
  try {
    check();
    return null;
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    const m = /^([A-Za-z][\w.]*): (.+)$/.exec(err.message);
    const message = m ? m[2]! : err.message;
    return { field: m ? m[1]! : 'design', message: message.charAt(0).toUpperCase() + message.slice(1) };
  }
}

/** The SVG the server would answer for `data` drawn with `design`. */
export async function renderPreview(data: string, design: QrDesign): Promise<Rendered> {
  if (design.frameStyle !== 'none' && design.frameText.trim() !== '') await loadText(design.frameText);
  const start = performance.now();
  const svg = renderSvg(data, design);
  const ms = performance.now() - start;
  return { svg, warnings: designWarnings(design, data), ms };
}

/** What a style thumbnail shows: the top-left eye (corner styles), a patch of dots, or the whole code (frames). */
export type ThumbnailView = 'eye' | 'dots' | 'whole';

/** A short link of the real length: thumbnails have the density of a real code. */
const THUMBNAIL_DATA = 'https://qr.example/r/AbCdE12';
/** Pixels per module: whole, so the renderer places the code exactly where the crop expects it. */
const MODULE_PX = 8;

/**
 * The SVG of a style picker's thumbnail: `design` drawn by the same renderer as the preview,
 * without its logo and frame text (those have their own controls, and text would need fonts),
 * cropped to the part the style changes.
 */
export function styleThumbnail(design: QrDesign, view: ThumbnailView): string {
  const plain: QrDesign = {
    ...design,
    customLogoUrl: null,
    presetLogo: 'none',
    frameText: '',
    frameStyle: view === 'whole' ? design.frameStyle : 'none',
  };
  if (view === 'whole') return renderSvg(THUMBNAIL_DATA, plain, { size: 160 });
  const n = createQrMatrix(THUMBNAIL_DATA, plain.errorCorrectionLevel).size;
  // Drawn at MODULE_PX a module, the code starts QUIET_ZONE modules in (render-svg's placeCode).
  const svg = renderSvg(THUMBNAIL_DATA, plain, { size: (n + 2 * QUIET_ZONE) * MODULE_PX });
  // The eye with a module of margin; or seven modules of data, clear of the eyes and the timing lines.
  const [from, span] = view === 'eye' ? [-1, 9] : [10, 7];
  const at = (QUIET_ZONE + from) * MODULE_PX;
  const side = span * MODULE_PX;
  return svg.replace(
    / width="\d+" height="\d+" viewBox="[^"]*"/,
    ` width="${side}" height="${side}" viewBox="${at} ${at} ${side} ${side}"`,
  );
}
