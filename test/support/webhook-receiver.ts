// A real webhook receiver on 127.0.0.1 for the tests: records every request (headers and raw
// body) and answers what the test says, after an optional delay.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Answer {
  status: number;
  body?: string;
  delayMs?: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Decides the answer to each request (default 200). */
  answer: (r: Received, index: number) => Answer;
  /** Resolves once `n` requests came (or throws after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const receiver: Receiver = {
    url: '',
    received,
    answer: () => ({ status: 200, body: 'ok' }),
    async waitFor(n, timeoutMs = 15_000) {
      if (received.length < n)
        await new Promise<void>((resolve, reject) => {
          const t = setTimeout(() => reject(new Error(`expected ${n} webhook requests, got ${received.length}`)), timeoutMs);
          waiters.push({
            n,
            resolve: () => {
              clearTimeout(t);
              resolve();
            },
          });
        });
      return received.slice(0, n);
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      const index = received.length;
      received.push(r);
      for (const w of waiters.filter((w) => received.length >= w.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      const a = receiver.answer(r, index);
      setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(a.status, { 'content-type': 'text/plain' });
        res.end(a.body ?? '');
      }, a.delayMs ?? 0);
    });
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}
