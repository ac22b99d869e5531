// The first preview the server drew into the page (src/http/web-app/studio-page.ts): "New code"
// opened cold arrives with its default design on screen, drawn by the same renderer the studio
// uses, so the studio takes that image over instead of drawing it again, and checks at once that
// it scans. The renderer's chunk then waits for that check (or for the first edit): on mobile
// data it would share the line with the scan check's decoder and hold the verdict back.
import { svgOfDataUrl } from '../../../src/render/svg-data-url.ts';
import { DEFAULT_DESIGN, type QrDesign } from '../../../src/domain/design/design-schema.ts';

/** The server's image, as the page arrived (read before the app renders over it). */
const drawn = document.querySelector<HTMLImageElement>('img.preview__img[data-drawn-for]');
const offered = drawn === null ? null : { url: drawn.getAttribute('src') ?? '', data: drawn.dataset.drawnFor ?? '' };
let taken = false;

let release = () => {};
const released = new Promise<void>((resolve) => (release = resolve));
if (offered === null) release();

export interface ServerPreview {
  svg: string;
  /** Its data: URL, character for character the one the studio would make of `svg`. */
  url: string;
}

/**
 * The server's drawing of `design` for `data`, once: only the first studio opened, and only when
 * it draws what this draft shows (the default design, the same short link).
 */
export function takeServerPreview(data: string, design: QrDesign): ServerPreview | null {
  if (taken || offered === null) return null;
  taken = true;
  const svg = svgOfDataUrl(offered.url);
  if (svg === null || offered.data !== data || JSON.stringify(design) !== JSON.stringify(DEFAULT_DESIGN)) {
    release();
    return null;
  }
  return { svg, url: offered.url };
}

/** Resolves when the renderer may load: at once, unless the server's preview is being checked. */
export function rendererMayLoad(): Promise<void> {
  return released;
}

/** The first check is done (or something needs the renderer now): it may load. */
export function releaseRenderer(): void {
  release();
}
