// A request body read into one buffer of its own, for a batch route that moves it to a worker
// (render-pool.ts moves, not copies, such a buffer). Fastify's own reader copies the whole body at
// once at its end: for 16 MiB that one copy, page faults included, held the thread that answers
// short links for some 50 ms. Here the copy goes 1 MiB at a time with a turn of the event loop
// between. Limits and errors are Fastify's: the same 413 and 400 answers as every other route.
import type { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { errorCodes } from 'fastify';

/** Bytes copied between two turns of the event loop. */
const PIECE = 1024 * 1024;

export async function readOwnedBody(payload: Readable, limit: number, contentLengthHeader: string | undefined): Promise<Buffer> {
  const contentLength = Number(contentLengthHeader);
  if (contentLength > limit) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
  const chunks = await new Promise<Buffer[]>((resolve, reject) => {
    const received: Buffer[] = [];
    let length = 0;
    const stop = () => {
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', onEnd);
    };
    function onData(chunk: Buffer | string) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      length += bytes.length;
      if (length > limit) {
        stop();
        reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
        return;
      }
      received.push(bytes);
    }
    function onEnd(err?: Error & { statusCode?: number }) {
      stop();
      if (err) {
        if (!(typeof err.statusCode === 'number' && err.statusCode >= 400)) err.statusCode = 400;
        reject(err);
        return;
      }
      if (!Number.isNaN(contentLength) && length !== contentLength) {
        reject(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
        return;
      }
      resolve(received);
    }
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onEnd);
    payload.resume();
  });
  const total = chunks.reduce((n, c) => n + c.length, 0);
  // Its own memory (never a slice of Node's shared pool), so it can be moved to a worker.
  const body = Buffer.from(new ArrayBuffer(total));
  let at = 0;
  let sinceTurn = 0;
  for (const chunk of chunks) {
    for (let from = 0; from < chunk.length; from += PIECE) {
      const piece = chunk.subarray(from, from + PIECE);
      piece.copy(body, at);
      at += piece.length;
      sinceTurn += piece.length;
      if (sinceTurn >= PIECE) {
        sinceTurn = 0;
        await nextTurn();
      }
    }
  }
  return body;
}
