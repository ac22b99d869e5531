// The body of a render worker thread (run by piscina; see render-pool.ts). It draws
// with the pure renderer and tells the pool, through shared memory, when a job starts
// and on which OS thread, so the pool can hold the job to a CPU-time budget and stop
// it from outside: a render blocked in the rasterizer cannot stop itself.
import { readFileSync, readlinkSync } from 'node:fs';
import type { MessagePort } from 'node:worker_threads';
import type { QrDesign } from '../domain/design/design.ts';
import { DomainError, ValidationError } from '../domain/errors.ts';
import { parseLogoDataUrl } from '../domain/design/logo.ts';
import { type BatchBodyJob, type ReadBatch, readBatchBody } from '../http/request/batch-body.ts';
import { drawLogoAlone, renderPdf, renderPng, renderSvg } from '../render/index.ts';
import { UNDECODABLE, rasterizableDesign, rasterizableLogo } from '../render/rasterizable-logo.ts';

export type RenderJob =
  | { kind: 'svg' | 'png'; data: string; design: QrDesign; width: number }
  /** A print-ready PDF `widthMm` millimetres wide. */
  | { kind: 'pdf'; data: string; design: QrDesign; widthMm: number }
  /**
   * A custom logo as a request gives it: parsed and sanitized, and with `trialWidth`
   * drawn alone at the largest size an image that wide gives a logo. Answers the
   * sanitized data URL.
   */
  | { kind: 'logo'; field: string; logo: string; trialWidth: number | null }
  /** A batch's JSON body, read and validated (src/http/request/batch-body.ts). */
  | ({ kind: 'batch-body' } & BatchBodyJob);

export interface RenderTask {
  job: RenderJob;
  /** Shared with the pool; slots below. */
  signal: BigInt64Array;
  /** Held open while the job runs; it closes when this thread has really exited. */
  lifeline: MessagePort;
}

/** Slots of RenderTask.signal. */
export const SIGNAL = { started: 0, threadId: 1, cpuNsAtStart: 2, wallMsAtStart: 3, length: 4 } as const;

/** Errors cross the thread boundary as plain data: a structured clone keeps neither class nor status. */
export type RenderOutcome = { ok: true; body: Uint8Array | string | ReadBatch } | { ok: false; status: number; message: string };

/** This thread's id as the OS knows it (Linux), so the pool can read its CPU time; 0 elsewhere. */
const osThreadId = (() => {
  try {
    return BigInt(readlinkSync('/proc/thread-self').split('/').at(-1) ?? 0);
  } catch {
    return 0n;
  }
})();

export function threadCpuNs(dir: string): bigint {
  try {
    return BigInt(readFileSync(`${dir}/schedstat`, 'latin1').split(' ', 1)[0] ?? -1);
  } catch {
    return -1n;
  }
}

export default function render(task: RenderTask): RenderOutcome | Promise<RenderOutcome> {
  const { job, signal } = task;
  Atomics.store(signal, SIGNAL.threadId, osThreadId);
  Atomics.store(signal, SIGNAL.cpuNsAtStart, osThreadId === 0n ? -1n : threadCpuNs('/proc/thread-self'));
  Atomics.store(signal, SIGNAL.wallMsAtStart, BigInt(Date.now()));
  Atomics.store(signal, SIGNAL.started, 1n);
  try {
    if (job.kind === 'logo') return outcome(() => parsedLogo(job.field, job.logo, job.trialWidth));
    if (job.kind === 'batch-body') return { ok: true, body: readBatchBody(job) };
    if (job.kind === 'svg') return { ok: true, body: renderSvg(job.data, job.design, { size: job.width }) };
    // The rasterizer cannot draw a WebP logo: it gets the logo as a PNG.
    if (job.kind === 'pdf') return outcome(async () => renderPdf(job.data, await rasterizableDesign(job.design), job.widthMm));
    return outcome(async () => renderPng(job.data, await rasterizableDesign(job.design), { size: job.width }));
  } catch (err) {
    return failed(err);
  }
}

async function outcome(work: () => Promise<Uint8Array | string | ReadBatch>): Promise<RenderOutcome> {
  try {
    return { ok: true, body: await work() };
  } catch (err) {
    return failed(err);
  }
}

function failed(err: unknown): RenderOutcome {
  if (err instanceof DomainError) return { ok: false, status: err.status, message: err.message };
  throw err;
}

async function parsedLogo(field: string, logo: string, trialWidth: number | null): Promise<string> {
  const { dataUrl, mediaType } = parseLogoDataUrl(field, logo);
  const drawable = await rasterizableLogo(dataUrl);
  if (drawable === null) throw new ValidationError(UNDECODABLE(field));
  // One drawing serves both: the trial of its cost (create and update) and, for a raster, the
  // check that it decodes at all.
  const raster = mediaType !== 'image/svg+xml';
  if (raster || trialWidth !== null) {
    const drawn = drawLogoAlone(drawable, trialWidth);
    if (raster && !drawn) throw new ValidationError(UNDECODABLE(field));
  }
  return dataUrl;
}
