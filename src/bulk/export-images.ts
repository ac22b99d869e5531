// A ZIP of the images of an account's codes (those a filter selects), streamed: codes are
// read a page at a time along the list's indexes (by the read workers on a SQLite file, else in
// pages of a few milliseconds: paged-read.ts) and drawn one at a time in the render pool,
// so memory stays flat and the short links keep their core however many codes there are.
// An image that cannot be drawn (a design over budget) does not end the download: the
// archive closes with `errors.txt` naming each such code.
import { setTimeout as sleep } from 'node:timers/promises';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { DomainError } from '../domain/errors.ts';
import type { QrItemRecord } from '../domain/qr-items/qr-item.ts';
import { type LinkAddresses, shortUrlOf } from '../domain/qr-items/short-code.ts';
import { titleSlug } from '../domain/qr-items/title-slug.ts';
import type { RenderPool } from '../render-pool/render-pool.ts';
import type { ExportFilter } from './export-codes.ts';

export type ImageFormat = 'png' | 'svg';

/** Codes read at most per page: they wait in memory while drawn one by one. */
export const IMAGES_PAGE = 500;
/** A busy pool (503) is waited out this many times per image before the image is listed as failed. */
const BUSY_RETRIES = 20;

export interface ImageExport {
  /** Which codes `pages` reads (its caller's business; kept here for the CLI and the route alike). */
  filter: ExportFilter;
  format: ImageFormat;
  /** Width in pixels; default each code's own resolution. */
  size?: number;
  /** Hears the number of codes done so far (drawn or listed as failed) after each. */
  onProgress?: (done: number) => void;
}

/** Yields the ZIP file in chunks. */
export async function* exportImagesZip(
  pages: AsyncIterable<QrItemRecord[]>,
  renderer: RenderPool,
  addresses: LinkAddresses,
  opts: ImageExport,
): AsyncGenerator<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((err, chunk) => {
    if (err) failure = err;
    else chunks.push(chunk);
  });
  const drain = function* () {
    if (failure) throw failure;
    yield* chunks.splice(0);
  };
  const failed: string[] = [];
  let done = 0;
  const names = new Set<string>();
  for await (const items of pages) {
    for (const item of items) {
      const image = await draw(renderer, item, addresses, opts);
      opts.onProgress?.(++done);
      if (!image.ok) {
        failed.push(`${item.code}\t${item.title}\t${image.reason}`);
        continue;
      }
      // PNG is compressed already; SVG text deflates to a fraction.
      const name = fileName(item, opts.format, names);
      const entry = opts.format === 'png' ? new ZipPassThrough(name) : new ZipDeflate(name, { level: 6 });
      zip.add(entry);
      entry.push(image.bytes, true);
      yield* drain();
    }
  }
  if (failed.length > 0) {
    const report = new ZipDeflate('errors.txt');
    zip.add(report);
    report.push(new TextEncoder().encode(`These codes could not be drawn:\ncode\ttitle\treason\n${failed.join('\n')}\n`), true);
  }
  zip.end();
  yield* drain();
}

type Drawn = { ok: true; bytes: Uint8Array } | { ok: false; reason: string };

async function draw(renderer: RenderPool, item: QrItemRecord, addresses: LinkAddresses, opts: ImageExport): Promise<Drawn> {
  const job = {
    kind: opts.format,
    data: shortUrlOf(item, addresses),
    design: item.design,
    width: opts.size ?? item.design.resolution,
  };
  for (let attempt = 0; ; attempt++) {
    try {
      // Behind every image someone is waiting for, and shared with other accounts' exports.
      const out = await renderer.render(job, { account: item.accountId, lane: 'bulk' });
      return { ok: true, bytes: typeof out === 'string' ? new TextEncoder().encode(out) : out };
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      if (err.status === 503 && attempt < BUSY_RETRIES) {
        await sleep(250);
        continue;
      }
      return { ok: false, reason: err.message };
    }
  }
}

/** `spring-menu-Ab3dE9z.png`: readable, and unique through the code. */
function fileName(item: QrItemRecord, ext: ImageFormat, taken: Set<string>): string {
  const slug = titleSlug(item.title);
  let name = `${slug ? `${slug}-` : ''}${item.code}.${ext}`;
  for (let i = 2; taken.has(name); i++) name = `${slug}-${item.code}-${i}.${ext}`;
  taken.add(name);
  return name;
}
