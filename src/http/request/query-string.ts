// Query strings are parsed as Fastify parses them (fast-querystring), which hands back a
// value whose percent-encoding is broken (`q=%FF`, `q=%E2%82`, `q=a%2`) as the raw text:
// a search would then look for "%FF" and answer 200 with nothing found. Such parameters
// are remembered here, so the request is refused with a 400 that names them instead.
import { parse } from 'fast-querystring';
import type { FastifyReply, FastifyRequest } from 'fastify';

const BADLY_ENCODED = Symbol('query parameters that are not valid percent-encoded UTF-8');

type ParsedQuery = Record<string, unknown> & { [BADLY_ENCODED]?: string[] };

export function parseQueryString(raw: string): Record<string, unknown> {
  const query = parse(raw) as ParsedQuery;
  // Only a '%' can make decoding fail; most query strings have none.
  if (!raw.includes('%')) return query;
  const bad: string[] = [];
  for (const pair of raw.split('&')) {
    const eq = pair.indexOf('=');
    const name = eq === -1 ? pair : pair.slice(0, eq);
    if (!decodes(name)) bad.push(name);
    else if (eq !== -1 && !decodes(pair.slice(eq + 1))) bad.push(decodeURIComponent(name.replace(/\+/g, ' ')));
  }
  if (bad.length) Object.defineProperty(query, BADLY_ENCODED, { value: bad, enumerable: false });
  return query;
}

function decodes(text: string): boolean {
  if (!text.includes('%')) return true;
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** onRequest hook: 400 for a request whose query has a parameter that does not decode. */
export function refuseBadlyEncodedQuery(req: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const bad = (req.query as ParsedQuery | undefined)?.[BADLY_ENCODED];
  if (!bad) {
    done();
    return;
  }
  const name = bad[0]!.length > 64 ? `${bad[0]!.slice(0, 64)}…` : bad[0]!;
  void reply
    .code(400)
    .send({ error: `${name}: is not valid percent-encoded UTF-8 (a % must be followed by two hex digits, and the bytes must be UTF-8)` });
}
