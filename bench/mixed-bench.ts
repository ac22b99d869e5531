// The redirect while images render: /r/{code} under the same load as the redirect bench,
// once alone and once while other connections keep asking for uncached 2500 px PNGs with
// a heavy (but allowed) logo, alternating, on one server process. The ratio of the two
// p99s says how much rendering costs the short links; renders run in worker threads, so
// it should cost them little.
// Run alone: npx tsx bench/mixed-bench.ts [--quick]
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ApiKeysRepository } from '../src/db/accounts/api-keys-repository.ts';
import { openDatabase } from '../src/db/database.ts';
import { QrItemsRepository } from '../src/db/qr-items/qr-items-repository.ts';
import { generateApiKey, parseScopes } from '../src/domain/accounts/api-key.ts';
import { type DesignPatch, resolveDesign } from '../src/domain/design/design.ts';
import { type LoadResult, measure, medianResult, spawnServer } from './http-load.ts';
import { freePortNumber } from './ports.ts';
import { type ResultRow, printResults } from './result-row.ts';
import { settle } from './settle.ts';
import { tempSqlite } from './stats-bench.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

export interface MixedBenchOptions {
  connections: number;
  durationSeconds: number;
  rounds: number;
  /** Connections asking for images meanwhile, each one request after another. */
  renderConnections: number;
}

/**
 * A heavy logo the create-time check still accepts: 400 translucent circles under a blur
 * on a gradient (43 KB). Drawn as large as a logo can be it costs about 0.17 s of CPU; a
 * whole 2500 px PNG with it, the phone frame and a gradient about 0.25 s, three times the
 * same image without it.
 */
export function heavyLogo(): string {
  const circles: string[] = [];
  for (let i = 0; i < 400; i++) {
    const angle = ((i * 137.5) % 360) * (Math.PI / 180);
    const r = 10 + (i % 40);
    const x = 50 + r * Math.cos(angle);
    const y = 50 + r * Math.sin(angle);
    circles.push(
      `<circle cx="${x.toFixed(2)}" cy="${y.toFixed(2)}" r="${2 + (i % 5)}" fill="hsl(${(i * 137.5) % 360},70%,50%)" fill-opacity="0.6"/>`,
    );
  }
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><defs><filter id="b"><feGaussianBlur stdDeviation="1.5"/></filter>' +
    '<linearGradient id="g"><stop offset="0" stop-color="#1a73e8"/><stop offset="1" stop-color="#e91e63"/></linearGradient></defs>' +
    `<rect width="100" height="100" rx="20" fill="url(#g)"/><g filter="url(#b)">${circles.join('')}</g></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

const HEAVY_DESIGN: DesignPatch = {
  customLogoUrl: heavyLogo(),
  logoSize: 0.5,
  errorCorrectionLevel: 'H',
  dotsStyle: 'rounded',
  isGradient: true,
  color1: '#1a237e',
  color2: '#880e4f',
  frameStyle: 'phone',
  frameText: 'Scan me',
};

async function seed(file: string) {
  const db = await openDatabase({ kind: 'sqlite', file });
  const keys = new ApiKeysRepository(db);
  const accountId = await keys.ensureAccount('bench-mixed');
  const key = generateApiKey();
  await keys.createKey({ accountId, name: 'bench', prefix: key.prefix, hash: key.hash, scopes: parseScopes('qr:read') });
  const item = await new QrItemsRepository(db).create(accountId, {
    title: 'bench',
    contentType: 'url',
    payload: 'https://example.com/',
    fields: {},
    design: resolveDesign(undefined),
  });
  await db.close();
  return { key: key.key, code: item.code };
}

interface RenderTally {
  statuses: Map<number, number>;
  seconds: number;
}

/** Keeps `connections` preview requests in flight, each for a new text (so never cached), until stopped. */
function renderLoad(base: string, key: string, connections: number): { stop(): Promise<RenderTally> } {
  let running = true;
  let n = 0;
  const statuses = new Map<number, number>();
  const started = performance.now();
  const loop = async () => {
    while (running) {
      const res = await fetch(`${base}/v1/qr/preview?format=png&size=2500`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...HEAVY_DESIGN, data: `https://example.com/bench/${n++}` }),
      });
      await res.arrayBuffer();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      // A client told to come back later does so, as the Retry-After says.
      if (res.status === 503) await new Promise((resolve) => setTimeout(resolve, Number(res.headers.get('retry-after') ?? 1) * 1000));
    }
  };
  const loops = Array.from({ length: connections }, loop);
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      return { statuses, seconds: (performance.now() - started) / 1000 };
    },
  };
}

export async function runMixedBench(o: MixedBenchOptions): Promise<ResultRow[]> {
  const sqlite = tempSqlite();
  const seeded = await seed(sqlite.file);
  const port = await freePortNumber();
  const base = `http://127.0.0.1:${port}`;
  const server = await spawnServer(
    [process.execPath, '--import', 'tsx', path.join(ROOT, 'src/server.ts')],
    // The default render settings; the key's rate limit is lifted so only the renderer limits the images.
    { DATABASE_URL: `sqlite:${sqlite.file}`, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '1000000' },
    `${base}/healthz`,
  );
  try {
    const url = `${base}/r/${seeded.code}`;
    const load = { connections: o.connections, durationSeconds: o.durationSeconds, headers: { 'user-agent': IPHONE } };
    const alone: LoadResult[] = [];
    const mixed: LoadResult[] = [];
    const renders = new Map<number, number>();
    let renderSeconds = 0;
    for (let round = 0; round < o.rounds; round++) {
      await settle();
      alone.push(await measure(url, load));
      await settle();
      const images = renderLoad(base, seeded.key, o.renderConnections);
      mixed.push(await measure(url, load));
      const tally = await images.stop();
      renderSeconds += tally.seconds;
      for (const [status, count] of tally.statuses) renders.set(status, (renders.get(status) ?? 0) + count);
    }
    const a = medianResult(alone);
    const m = medianResult(mixed);
    const ok = renders.get(200) ?? 0;
    const others = [...renders].filter(([s]) => s !== 200).map(([s, c]) => `${c}× ${s}`);
    const perRound = mixed.map((r, i) => `${alone[i]?.p99}→${r.p99}`).join(' ');
    return [
      {
        name: `SQLite /r/{code} p99 while ${o.renderConnections} connections render 2500 px PNGs with a heavy logo`,
        value: m.p99,
        unit: 'ms',
        ratio: m.p99 / a.p99,
        baseline: `/r/{code} alone: p50 ${a.p50} ms, p99 ${a.p99} ms, ${Math.round(a.rps)} req/s`,
        extra:
          `p50 ${m.p50} ms, ${Math.round(m.rps)} req/s, errors ${m.errors + m.non2xx3xx}; p99 per round alone→mixed ${perRound}; ` +
          `${ok} PNGs rendered (${(ok / renderSeconds).toFixed(1)}/s)${others.length ? `, ${others.join(', ')}` : ''}; median of ${o.rounds}`,
      },
    ];
  } finally {
    await server.close();
    sqlite.dispose();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const quick = process.argv.includes('--quick');
  printResults(await runMixedBench({ connections: 50, durationSeconds: quick ? 3 : 10, rounds: quick ? 1 : 3, renderConnections: 4 }));
}
