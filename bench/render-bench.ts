// Rendering against the plain `qrcode` package, measured in the same run on the same
// texts and widths: our styled SVG vs its unstyled SVG, our styled PNG vs its
// unstyled PNG, then memory over 1,000 renders. Each text is a different short link,
// as in real traffic, and baseline and ours alternate so load spikes hit both alike.
// Run alone: npx tsx bench/render-bench.ts
import { setImmediate as nextTurn } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import QRCode from 'qrcode';
import { DEFAULT_DESIGN, type QrDesign } from '../src/domain/design/design.ts';
import { renderPng, renderSvg } from '../src/render/index.ts';
import { RenderPool } from '../src/render-pool/render-pool.ts';

import { type ResultRow, printResults } from './result-row.ts';

/** The "styled" design: rounded dots, gradient, logo and frame. */
const STYLED: QrDesign = {
  ...DEFAULT_DESIGN,
  dotsStyle: 'rounded',
  cornerSquare: 'extra-rounded',
  cornerDot: 'dot',
  isGradient: true,
  color1: '#1d4ed8',
  color2: '#9333ea',
  gradientRotation: 45,
  presetLogo: 'link',
  frameStyle: 'bottom-banner',
};

const SIZES = [500, 1000, 2500] as const;
const SVG_ROUNDS = 300;
const PNG_ROUNDS: Record<(typeof SIZES)[number], number> = { 500: 60, 1000: 40, 2500: 10 };
const MEMORY_RENDERS = 1000;
/** Large PNGs through the worker pool: the rasterizer's pixmaps live outside any V8 heap. */
const POOL_PNGS = 60;
const POOL_PNG_SIZE = 2500;

function shortLinks(count: number): string[] {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from({ length: count }, (_, i) => {
    let code = '';
    for (let k = 0, v = i * 7919 + 12345; k < 7; k++, v = Math.floor(v / 62) + k * 31) code += alphabet[v % 62];
    return `http://localhost:3000/r/${code}`;
  });
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * Alternates baseline and ours on the same inputs; medians of per-call wall-clock
 * milliseconds, awaited (qrcode's PNG deflates on a stream, off the main thread).
 */
async function compare(rounds: number, texts: string[], baseline: (t: string) => unknown, ours: (t: string) => unknown) {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = -3; i < rounds; i++) {
    const text = texts[(i + texts.length) % texts.length]!;
    let t = performance.now();
    await baseline(text);
    const ta = performance.now() - t;
    t = performance.now();
    await ours(text);
    const tb = performance.now() - t;
    if (i >= 0) {
      a.push(ta);
      b.push(tb);
    } // the first three rounds only warm up both sides
    await nextTurn(); // as a server would between requests (lets native finalizers run)
  }
  return { baseline: median(a), ours: median(b) };
}

function row(name: string, ours: number, base: number, baseName: string): ResultRow {
  return { name, value: ours, unit: 'ms', ratio: ours / base, baseline: `${baseName}: ${base.toFixed(2)} ms` };
}

async function timing(texts: string[]): Promise<ResultRow[]> {
  const rows: ResultRow[] = [];
  for (const size of SIZES) {
    const svg = await compare(
      SVG_ROUNDS,
      texts,
      (t) => QRCode.toString(t, { type: 'svg', width: size, errorCorrectionLevel: 'Q' }),
      (t) => renderSvg(t, STYLED, { size }),
    );
    rows.push(row(`render: styled SVG ${size} px`, svg.ours, svg.baseline, `qrcode SVG ${size} px`));
  }
  for (const size of SIZES) {
    const png = await compare(
      PNG_ROUNDS[size],
      texts,
      (t) => QRCode.toBuffer(t, { type: 'png', width: size, errorCorrectionLevel: 'Q' }),
      (t) => renderPng(t, STYLED, { size }),
    );
    rows.push(row(`render: styled PNG ${size} px`, png.ours, png.baseline, `qrcode PNG ${size} px`));
  }
  return rows;
}

async function memory(texts: string[]): Promise<ResultRow[]> {
  const gc = collector();
  const sample = async () => {
    gc();
    await nextTurn(); // finalizers of collected native objects run on the next turn
    gc();
    const m = process.memoryUsage();
    return { heap: m.heapUsed / 2 ** 20, rss: m.rss / 2 ** 20 };
  };
  // Warm up first so caches (font, matrices' code paths) are not counted as growth.
  for (let i = 0; i < 50; i++) {
    renderPng(texts[i]!, STYLED, { size: 500 });
    await nextTurn();
  }
  const before = await sample();
  for (let i = 0; i < MEMORY_RENDERS; i++) {
    renderSvg(texts[i % texts.length]!, STYLED, { size: 1000 });
    renderPng(texts[i % texts.length]!, STYLED, { size: 500 });
    await nextTurn();
  }
  const after = await sample();
  const note = `before ${before.heap.toFixed(1)} MiB heap / ${before.rss.toFixed(0)} MiB RSS`;
  return [
    { name: `render: heap after ${MEMORY_RENDERS} SVG+PNG renders`, value: after.heap, unit: 'MiB', extra: note },
    { name: `render: RSS after ${MEMORY_RENDERS} SVG+PNG renders`, value: after.rss, unit: 'MiB', extra: note },
  ];
}

/**
 * The process's memory over large PNGs rendered as the server renders them, in the worker
 * pool. The rows above render on this thread and sample the heap, so they could not see the
 * leak the pool once had (pixmaps never freed while a worker waited in Atomics.wait: 3.3 GB
 * after 60 such images); RSS of the whole process does.
 */
async function poolMemory(texts: string[]): Promise<ResultRow[]> {
  const pool = new RenderPool({ workers: 1, timeoutMs: 30_000, queue: 8, wallLimitMs: 300_000 });
  const rss = () => process.memoryUsage().rss / 2 ** 20;
  try {
    await pool.render({ kind: 'png', data: texts[0]!, design: STYLED, width: POOL_PNG_SIZE });
    const before = rss();
    let peak = before;
    for (let i = 0; i < POOL_PNGS; i++) {
      await pool.render({ kind: 'png', data: texts[i % texts.length]!, design: STYLED, width: POOL_PNG_SIZE });
      peak = Math.max(peak, rss());
    }
    const after = rss();
    return [
      {
        name: `render pool: RSS growth over ${POOL_PNGS} PNGs at ${POOL_PNG_SIZE} px`,
        value: after - before,
        unit: 'MiB',
        extra: `before ${before.toFixed(0)} MiB, peak ${peak.toFixed(0)}, after ${after.toFixed(0)} (about 50 MB of pixmap each)`,
      },
    ];
  } finally {
    await pool.close();
  }
}

/** A full garbage collection, so heap figures compare live data, not garbage not yet collected. */
function collector(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

export async function runRenderBench(): Promise<ResultRow[]> {
  const texts = shortLinks(MEMORY_RENDERS);
  return [...(await timing(texts)), ...(await memory(texts)), ...(await poolMemory(texts))];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = performance.now();
  const rows = await runRenderBench();
  printResults(rows);
  console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
