// The webhooks bench's receiver, in a process of its own (bench/webhooks-bench.ts forks it): answers
// 204 at once and counts the scans the messages carry, in the bytes as they arrive, never joining a
// body or decoding it. Tells the parent its address, then answers each 'count' with the count.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the receiver counts: one per scan a message carries. */
const SCAN_MARK = Buffer.from('"scanId":');

let n = 0;
const server = http.createServer((req, res) => {
  // The last bytes received: a mark may be split between chunks.
  let tail = Buffer.alloc(0);
  req.on('data', (chunk: Buffer) => {
    const seam = tail.length > 0 ? Buffer.concat([tail, chunk.subarray(0, SCAN_MARK.length - 1)]) : null;
    if (seam) for (let at = seam.indexOf(SCAN_MARK); at !== -1; at = seam.indexOf(SCAN_MARK, at + 1)) n++;
    for (let at = chunk.indexOf(SCAN_MARK); at !== -1; at = chunk.indexOf(SCAN_MARK, at + SCAN_MARK.length)) n++;
    tail = Buffer.from((chunk.length >= SCAN_MARK.length - 1 ? chunk : Buffer.concat([tail, chunk])).subarray(-(SCAN_MARK.length - 1)));
  });
  req.on('end', () => res.writeHead(204).end());
});
server.listen(0, '127.0.0.1', () => {
  process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` });
});
process.on('message', (m) => {
  if (m === 'count') process.send?.({ count: n });
});
process.on('disconnect', () => server.close(() => process.exit(0)));
