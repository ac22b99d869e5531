// Requests that never become requests: the HTTP parser refuses them (headers over Node's
// 16 KiB, a Content-Length that is not a number, bytes that are not HTTP) before Fastify
// routes anything. They get the same `{ error }` body as every other error, naming what
// was wrong, instead of Fastify's default with its extra `message` and `statusCode`.
import http from 'node:http';
import type { Socket } from 'node:net';

interface ParserError extends Error {
  code?: string;
}

/** Status and message for a parser error code. */
export function clientErrorAnswer(code: string | undefined): { status: number; error: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, error: `headers: larger than ${Math.round(http.maxHeaderSize / 1024)} KiB in all (the URL counts too)` };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, error: 'request: did not arrive in time' };
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return { status: 400, error: 'Content-Length: is not a valid length' };
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return { status: 400, error: 'Transfer-Encoding: is not valid' };
    case 'HPE_INVALID_HEADER_TOKEN':
      return { status: 400, error: 'headers: a header name or value has characters HTTP does not allow' };
    default:
      return { status: 400, error: 'request: is not valid HTTP' };
  }
}

export function handleClientError(err: ParserError, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const { status, error } = clientErrorAnswer(err.code);
    const body = JSON.stringify({ error });
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
