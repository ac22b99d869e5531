// The scan lab: each design, drawn by us, by qr-code-styling (the anchor), as a plain
// black square-module code (the ceiling) and as a plain code in the design's own colours,
// goes through each camera degradation and each decoder. A design "scans" when the
// decoder returns exactly the encoded text.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { frameLayout } from '../../src/render/frames.ts';
import { createQrMatrix, designWarnings, renderSvg } from '../../src/render/index.ts';
import { placeCode } from '../../src/render/render-svg.ts';
import { anchorOrigin, anchorSvg } from './anchor.ts';
import { decode, DECODERS, type DecoderName, type Pixels } from './decoders.ts';
import { BASE_WIDTH, degrade, DEGRADATIONS, hasNoise, NOISE_FIELDS, type Degradation } from './degradations.ts';
import { plainDesign, plainInColours, type CameraDesign, type Factor } from './designs.ts';
import { placeOn, rasterize } from './raster.ts';

export interface Outcome {
  design: CameraDesign;
  /** The design gets a scan warning, so it is held to no goal. */
  warned: boolean;
  degradation: string;
  decoder: DecoderName;
  /**
   * The share of reads that returned the text: 0 or 1, or under sensor noise the share of
   * the NOISE_FIELDS noise fields.
   */
  ours: number;
  anchor: number;
  ceiling: number;
  /** A plain square-module code in the design's colours: what the palette alone costs. */
  colours: number;
}

export interface LabOptions {
  degradations?: readonly Degradation[];
  decoders?: readonly DecoderName[];
  /** Skip the anchor (qr-code-styling) or the ceiling (plain code) when only our rates matter. */
  anchor?: boolean;
  ceiling?: boolean;
  /** Also read a plain code in each design's colours (off by default: it adds a quarter to the run). */
  colours?: boolean;
  onDesign?: (done: number, total: number) => void;
}

export async function runLab(designs: readonly CameraDesign[], opts: LabOptions = {}): Promise<Outcome[]> {
  const degradations = opts.degradations ?? DEGRADATIONS;
  const decoders = opts.decoders ?? DECODERS;
  const ceilingCache = new Map<string, Map<string, Record<string, number>>>();
  const out: Outcome[] = [];
  for (const [i, d] of designs.entries()) {
    const ours = rasterize(renderSvg(d.data, d.design, { size: BASE_WIDTH }));
    // The anchor and the ceiling are drawn with modules of the same pixel size as ours:
    // a frame takes room from the code, and that cost must not be hidden by the comparison.
    const layout = frameLayout(d.design.frameStyle, BASE_WIDTH);
    const codeWidth = Math.round(layout.code.w);
    // ...and are put with their first module on ours, on white paper the size of our image:
    // sensor noise is a seeded field over the image's pixels, and only the same geometry sees
    // the same noise (one field over a smaller image moved the anchor's rate under noise by
    // half; a code moved by one pixel reads or fails with zxing's 8-pixel threshold blocks).
    const n = createQrMatrix(d.data, d.design.errorCorrectionLevel).size;
    const at = placeCode(n, layout.code);
    const asOurs = (px: Pixels, origin: number) => placeOn(px, ours.width, ours.height, at.x - origin, at.y - origin);
    const plainOrigin = placeCode(n, { x: 0, y: 0, w: codeWidth, h: codeWidth }).x;
    const anchor =
      opts.anchor === false ? null : asOurs(rasterize(await anchorSvg(d.data, d.design, codeWidth)), anchorOrigin(n, codeWidth));
    const plain = plainDesign(d.design);
    const key = `${d.data}|${plain.errorCorrectionLevel}|${d.design.frameStyle}`;
    let ceiling = opts.ceiling === false ? noHits(degradations, decoders) : ceilingCache.get(key);
    if (!ceiling) {
      ceiling = await scanAll(
        asOurs(rasterize(renderSvg(d.data, plain, { size: codeWidth })), plainOrigin),
        d.data,
        degradations,
        decoders,
      );
      ceilingCache.set(key, ceiling);
    }
    const colours = opts.colours
      ? await scanAll(
          asOurs(rasterize(renderSvg(d.data, plainInColours(d.design), { size: codeWidth })), plainOrigin),
          d.data,
          degradations,
          decoders,
        )
      : null;
    const oursHits = await scanAll(ours, d.data, degradations, decoders);
    const anchorHits = anchor ? await scanAll(anchor, d.data, degradations, decoders) : null;
    const warned = designWarnings(d.design, d.data).length > 0;
    for (const deg of degradations) {
      for (const dec of decoders) {
        out.push({
          design: d,
          warned,
          degradation: deg.name,
          decoder: dec,
          ours: oursHits.get(deg.name)![dec]!,
          anchor: anchorHits ? anchorHits.get(deg.name)![dec]! : 0,
          ceiling: ceiling.get(deg.name)![dec]!,
          colours: colours ? colours.get(deg.name)![dec]! : 0,
        });
      }
    }
    opts.onDesign?.(i + 1, designs.length);
    // resvg frees its native pixmaps in finalizers that run on a later turn.
    await nextTurn();
  }
  return out;
}

function noHits(degradations: readonly Degradation[], decoders: readonly DecoderName[]) {
  return new Map(degradations.map((d) => [d.name, Object.fromEntries(decoders.map((dec) => [dec, 0]))]));
}

async function scanAll(px: Pixels, text: string, degradations: readonly Degradation[], decoders: readonly DecoderName[]) {
  const hits = new Map<string, Record<string, number>>();
  for (const deg of degradations) {
    const fields = hasNoise(deg) ? NOISE_FIELDS : 1;
    const row: Record<string, number> = Object.fromEntries(decoders.map((dec) => [dec, 0]));
    for (let field = 0; field < fields; field++) {
      const seen = await degrade(px, deg, field);
      for (const dec of decoders) if ((await decode[dec](seen)) === text) row[dec]! += 1 / fields;
    }
    hits.set(deg.name, row);
  }
  return hits;
}

export interface Rate {
  n: number;
  ours: number;
  anchor: number;
  ceiling: number;
  colours: number;
}

/** Success rates (0..1) of the outcomes that `pick` keeps. */
export function rate(outcomes: readonly Outcome[], pick: (o: Outcome) => boolean = () => true): Rate {
  const kept = outcomes.filter(pick);
  const share = (f: (o: Outcome) => number) => (kept.length ? kept.reduce((sum, o) => sum + f(o), 0) / kept.length : 1);
  return {
    n: kept.length,
    ours: share((o) => o.ours),
    anchor: share((o) => o.anchor),
    ceiling: share((o) => o.ceiling),
    colours: share((o) => o.colours),
  };
}

export interface GroupRate extends Rate {
  group: string;
}

/** Rates split by each option value and each degradation, for one decoder, goal designs only. */
export function breakdown(outcomes: readonly Outcome[], decoder: DecoderName, factors: readonly Factor[]): GroupRate[] {
  const mine = outcomes.filter((o) => o.decoder === decoder && !o.warned);
  const rows: GroupRate[] = [{ group: 'all designs without a warning', ...rate(mine) }];
  for (const f of factors) {
    const values = [...new Set(mine.map((o) => o.design.labels[f]))];
    for (const v of values) rows.push({ group: `${f} ${v}`, ...rate(mine, (o) => o.design.labels[f] === v) });
  }
  for (const deg of [...new Set(mine.map((o) => o.degradation))])
    rows.push({ group: `degradation: ${deg}`, ...rate(mine, (o) => o.degradation === deg) });
  const warned = outcomes.filter((o) => o.decoder === decoder && o.warned);
  if (warned.length) rows.push({ group: 'designs with a warning', ...rate(warned) });
  return rows;
}

/** Where the goals fail for one decoder: empty when they hold. */
export function goalMisses(rows: readonly GroupRate[], decoder: DecoderName): string[] {
  const misses: string[] = [];
  const all = rows[0]!;
  const pct = (v: number) => `${(v * 100).toFixed(1)} %`;
  if (decoder === 'zxing' && all.ours < 0.995) misses.push(`zxing overall ${pct(all.ours)} < 99.5 %`);
  if (decoder !== 'zxing' && all.ours < all.ceiling - 0.02)
    misses.push(`${decoder} overall ${pct(all.ours)} more than 2 points below the ceiling ${pct(all.ceiling)}`);
  for (const r of rows) {
    if (r.group.startsWith('degradation') || r.group.startsWith('designs with')) continue;
    if (r.ours < r.anchor) misses.push(`${decoder} ${r.group}: ${pct(r.ours)} below qr-code-styling's ${pct(r.anchor)}`);
  }
  return misses;
}

export function formatTable(rows: readonly GroupRate[], decoder: string, withColours = false): string {
  const pct = (v: number) => `${(v * 100).toFixed(1)}`.padStart(6);
  const width = Math.max(...rows.map((r) => r.group.length));
  const colours = (text: string) => (withColours ? `  ${text}` : '');
  const head = `${decoder.padEnd(width)}  ${'ours'.padStart(6)}  ${'ceil.'.padStart(6)}  ${'anchor'.padStart(6)}${colours('colours')}  ${'scans'.padStart(6)}`;
  const lines = rows.map(
    (r) =>
      `${r.group.padEnd(width)}  ${pct(r.ours)}  ${pct(r.ceiling)}  ${pct(r.anchor)}${colours(` ${pct(r.colours)}`)}  ${String(r.n).padStart(6)}`,
  );
  return [head, ...lines].join('\n');
}
