// The body of a render worker thread (run by piscina; see render-pool.ts). It draws
// with the pure renderer and tells the pool, through shared memory, when a job starts
// and on which OS thread, so the pool can hold the job to a CPU-time budget and stop
// it from outside: a render blocked in the rasterizer cannot stop itself.
import { readFileSync, readlinkSync } from 'node:fs';
import type { MessagePort } from 'node:worker_threads';
import type { QrDesign } from '../domain/design.ts';
import { DomainError } from '../domain/errors.ts';
import { renderLogoTrial, renderPng, renderSvg } from '../render/index.ts';

export type RenderJob =
  | { kind: 'svg' | 'png'; data: string; design: QrDesign; width: number }
  /** The logo alone at the largest size an image `width` wide draws it (create/update check). */
  | { kind: 'logo-trial'; logo: string; width: number };

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
export type RenderOutcome = { ok: true; body: Uint8Array | string } | { ok: false; status: number; message: string };

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

export default function render(task: RenderTask): RenderOutcome {
  const { job, signal } = task;
  Atomics.store(signal, SIGNAL.threadId, osThreadId);
  Atomics.store(signal, SIGNAL.cpuNsAtStart, osThreadId === 0n ? -1n : threadCpuNs('/proc/thread-self'));
  Atomics.store(signal, SIGNAL.wallMsAtStart, BigInt(Date.now()));
  Atomics.store(signal, SIGNAL.started, 1n);
  try {
    if (job.kind === 'logo-trial') return { ok: true, body: String(renderLogoTrial(job.logo, job.width)) };
    if (job.kind === 'svg') return { ok: true, body: renderSvg(job.data, job.design, { size: job.width }) };
    return { ok: true, body: renderPng(job.data, job.design, { size: job.width }) };
  } catch (err) {
    if (err instanceof DomainError) return { ok: false, status: err.status, message: err.message };
    throw err;
  }
}
