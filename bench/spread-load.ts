// A load child: autocannon against `/r/{code}` with each request's code drawn at random from a
// file of codes, so scans spread over a long tail of codes instead of one hot code.
// Usage: node --import tsx bench/spread-load.ts BASE_URL CODES_FILE CONNECTIONS SECONDS USER_AGENT
import fs from 'node:fs';
import { createRequire } from 'node:module';

interface Request {
  path?: string;
}
type Autocannon = (opts: object) => Promise<object>;

const [base, file, connections, seconds, agent] = process.argv.slice(2) as [string, string, string, string, string];
const codes = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
const pick = () => codes[Math.floor(Math.random() * codes.length)] as string;
const options = {
  url: base,
  connections: Number(connections),
  headers: { 'user-agent': agent },
  requests: [{ setupRequest: (req: Request) => ({ ...req, path: `/r/${pick()}` }) }],
};
// A second of warm-up, not counted, as the single-URL measurement does.
await autocannon({ ...options, duration: 1 });
const report = await autocannon({ ...options, duration: Number(seconds) });
process.stdout.write(`${JSON.stringify(report)}\n`);
