// A tiny DNS server for tests: answers TXT questions from a table, on 127.0.0.1 and a free UDP
// port, so domain verification runs without any network. Names not in the table answer
// NXDOMAIN; a name set to [] answers with no records.
import dgram from 'node:dgram';

export interface DnsStub {
  /** For DNS_RESOLVERS: 127.0.0.1:<port>. */
  address: string;
  /** TXT values by name (lower case, no trailing dot). */
  txt: Map<string, string[]>;
  /** Questions asked so far (names). */
  asked: string[];
  close(): Promise<void>;
}

export async function startDnsStub(): Promise<DnsStub> {
  const socket = dgram.createSocket('udp4');
  const txt = new Map<string, string[]>();
  const asked: string[] = [];
  socket.on('message', (msg, from) => {
    const q = parseQuestion(msg);
    if (q === null) return;
    asked.push(q.name);
    const values = q.type === 16 ? txt.get(q.name) : undefined;
    socket.send(answer(msg, q.end, values ?? null, txt.has(q.name)), from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    txt,
    asked,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

function parseQuestion(msg: Buffer): { name: string; type: number; end: number } | null {
  if (msg.length < 17) return null;
  const labels: string[] = [];
  let at = 12;
  while (at < msg.length) {
    const len = msg[at] ?? 0;
    if (len === 0) break;
    labels.push(msg.subarray(at + 1, at + 1 + len).toString('ascii'));
    at += 1 + len;
  }
  const type = msg.readUInt16BE(at + 1);
  return { name: labels.join('.').toLowerCase(), type, end: at + 5 };
}

/** The answer: the header and the question copied, then one TXT record per value. */
function answer(query: Buffer, questionEnd: number, values: string[] | null, known: boolean): Buffer {
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2); // id
  header.writeUInt16BE(0x8180 | (known ? 0 : 3), 2); // response, recursion desired and available; NXDOMAIN when unknown
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(values?.length ?? 0, 6);
  const records = (values ?? []).map((value) => {
    const text = Buffer.from(value);
    const rr = Buffer.alloc(12);
    rr.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
    rr.writeUInt16BE(16, 2); // TXT
    rr.writeUInt16BE(1, 4); // IN
    rr.writeUInt32BE(0, 6); // TTL
    rr.writeUInt16BE(text.length + 1, 10);
    return Buffer.concat([rr, Buffer.from([text.length]), text]);
  });
  return Buffer.concat([header, query.subarray(12, questionEnd), ...records]);
}
