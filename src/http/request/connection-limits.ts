// Connections are the one thing a client holds without credentials: a few addresses can fill the
// process's file descriptors (docs/security.md). So each peer address (an IPv6 /64) may hold a bounded number. At the cap
// its oldest connection with no request in flight (idle, or still sending headers) makes room;
// when all are busy the new one is answered 429 and closed. The peer is whoever connects: behind
// a reverse proxy that is the proxy (exempt when TRUST_PROXY trusts it), which must cap its clients.
import type http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { addressKey } from '../../domain/address-key.ts';
import type { TrustFunction } from './client-address.ts';

interface Tracked {
  key: string;
  /** Requests begun on it and not yet answered. */
  inFlight: number;
}

const REFUSAL = JSON.stringify({ error: 'connections: too many open connections from this address; close some and retry' });
const REFUSAL_RESPONSE = `HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(REFUSAL)}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n${REFUSAL}`;

export class ConnectionLimiter {
  /** Open connections per address, oldest first (a Set keeps insertion order). */
  private readonly byAddress = new Map<string, Set<Socket>>();
  private readonly tracked = new WeakMap<Socket, Tracked>();

  constructor(
    private readonly maxPerAddress: number,
    private readonly trust: TrustFunction | false,
  ) {}

  /** Attaches to the server's new connections. */
  attach(server: http.Server): void {
    if (this.maxPerAddress === 0) return;
    server.on('connection', (socket: Socket) => this.admit(socket));
  }

  /** Counts a request on its connection until its answer is finished. Called for every request, /r/* too. */
  requestBegan(req: http.IncomingMessage, res: http.ServerResponse): void {
    const t = this.tracked.get(req.socket);
    if (t === undefined) return;
    t.inFlight++;
    // A response always emits 'close' (after 'finish', or on an aborted request): one listener a
    // request on the short links' path, not two with a guard.
    res.once('close', () => {
      t.inFlight--;
    });
  }

  /** Open connections of the address's group (for tests and metrics). */
  openFrom(address: string): number {
    return this.byAddress.get(addressKey(address))?.size ?? 0;
  }

  private admit(socket: Socket): void {
    const address = socket.remoteAddress;
    if (address === undefined) return;
    // A trusted proxy carries many clients on its connections; it caps them itself.
    if (this.trust !== false && this.trust(address, 0)) return;
    const key = addressKey(address);
    let open = this.byAddress.get(key);
    if (open === undefined) {
      open = new Set();
      this.byAddress.set(key, open);
    }
    if (open.size >= this.maxPerAddress && !this.evictIdle(open)) {
      socket.end(REFUSAL_RESPONSE, () => socket.destroy());
      return;
    }
    open.add(socket);
    this.tracked.set(socket, { key, inFlight: 0 });
    socket.once('close', () => {
      const set = this.byAddress.get(key);
      if (set === undefined) return;
      set.delete(socket);
      if (set.size === 0) this.byAddress.delete(key);
    });
  }

  /** Closes the oldest connection with nothing in flight; false when every one is busy. */
  private evictIdle(open: Set<Socket>): boolean {
    for (const s of open) {
      if ((this.tracked.get(s)?.inFlight ?? 0) > 0) continue;
      open.delete(s);
      s.destroy();
      return true;
    }
    return false;
  }
}

/**
 * Node's requestTimeout is one value for the whole server, so it is the large-body one; every
 * other route's body must arrive within `requestTimeoutMs` of its headers, or the request is
 * answered 408 and its connection closed (a client trickling a body holds a connection and a
 * parser otherwise). The large-body routes (imports, batches) are those whose body limit is
 * above the server's default: they need the time a 16 MiB upload takes.
 */
export function bodyDeadline(requestTimeoutMs: number, defaultBodyLimit: number) {
  return function deadline(req: FastifyRequest, reply: FastifyReply, done: () => void): void {
    const raw = req.raw;
    const hasBody =
      raw.headers['content-length'] !== undefined ? raw.headers['content-length'] !== '0' : raw.headers['transfer-encoding'] !== undefined;
    if (!hasBody || raw.complete || (req.routeOptions.bodyLimit ?? 0) > defaultBodyLimit) {
      done();
      return;
    }
    // An injected request's socket (app.inject) is a stand-in without destroy(): nothing to drop there.
    const drop = () => (raw.socket as { destroy?: () => void } | null)?.destroy?.();
    const timer = setTimeout(() => {
      if (raw.complete) return;
      const res = reply.raw;
      if (!res.headersSent) {
        const body = JSON.stringify({ error: `request: the body did not arrive within ${Math.round(requestTimeoutMs / 1000)} s` });
        res.writeHead(408, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(body),
          connection: 'close',
        });
        res.end(body, drop);
      } else drop();
    }, requestTimeoutMs);
    timer.unref();
    const clear = () => clearTimeout(timer);
    raw.once('end', clear);
    raw.once('close', clear);
    done();
  };
}
