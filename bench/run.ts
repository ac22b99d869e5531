// npm run bench [-- --db postgres] [-- --quick] [-- --big] [-- --only redirect,stats,overview,lists,batch,render,mixed,reads,studio,neighbours,webhooks]
// One run measures every hot path against a baseline taken in the same run:
// the redirect against a bare http server, stats at 10k against 1M scans, the account
// overview at 10k codes / 1M scans against 100 codes / 10k scans, rendering against
// the plain qrcode package, the redirect while images
// render against the redirect alone, the redirect while stats, sparkline pages and exports
// loop (read workers, and reads on the main thread) against the redirect alone, lists at 10k against 1M codes, and bulk
// create against one-at-a-time create, and the studio's in-browser preview against the
// server's preview route, and the short links of one account while another account's
// requests run beside them (neighbours: 200k codes, 1M with --big) against the idle probe, and the
// redirect with five webhook endpoints subscribed to every scan against none (webhooks);
// and, only when named, a long tail of scans over 1M codes: the aggregator's rate and the roll-ups' size.
import { parseArgs } from 'node:util';
import { type RedirectTarget, runRedirectBench } from './redirect-bench.ts';
import { type ResultRow, printResults } from './result-row.ts';
import { runStatsBench, tempSqlite } from './stats-bench.ts';
import { freshPostgres } from './postgres.ts';

const BENCHES = ['redirect', 'stats', 'overview', 'lists', 'batch', 'render', 'mixed', 'reads', 'studio', 'neighbours', 'webhooks'];
/** Run only when named: the long tail seeds 1M codes and 10M scans (100k and 1M with --quick). */
const OPT_IN = ['longtail'];
const USAGE = `usage: npm run bench [-- --db sqlite|postgres|both] [--quick] [--big] [--only ${[...BENCHES, ...OPT_IN].join(',')}]
PostgreSQL runs use BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test); each run makes a throw-away database there.`;

function options() {
  try {
    const { values } = parseArgs({
      options: {
        db: { type: 'string', default: 'sqlite' },
        quick: { type: 'boolean', default: false },
        big: { type: 'boolean', default: false },
        only: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      console.log(USAGE);
      process.exit(0);
    }
    const unknown = (values.only ?? '').split(',').filter((name) => name !== '' && !BENCHES.includes(name) && !OPT_IN.includes(name));
    if (unknown.length > 0) throw new Error(`--only: unknown bench ${unknown.join(', ')}`);
    if (!['sqlite', 'postgres', 'both'].includes(values.db)) throw new Error('--db: must be sqlite, postgres or both');
    return values;
  } catch (err) {
    // A mistyped option printed a stack trace, and a mistyped bench ran nothing and exited 0.
    console.error(`bench: ${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
    process.exit(2);
  }
}

const values = options();
const withPostgres = values.db === 'postgres' || values.db === 'both';
const quick = values.quick;
const only = values.only ?? BENCHES.join(',');
const load = { connections: 50, durationSeconds: quick ? 3 : 10 };
const rows: ResultRow[] = [];

if (only.includes('redirect')) {
  const sqlite = tempSqlite();
  const targets: RedirectTarget[] = [{ label: 'SQLite', database: sqlite.config, databaseUrl: `sqlite:${sqlite.file}` }];
  const pg = withPostgres ? await freshPostgres() : null;
  if (pg) targets.push({ label: 'PostgreSQL', database: { kind: 'postgres', url: pg.url }, databaseUrl: pg.url });
  rows.push(...(await runRedirectBench(targets, { ...load, rounds: quick ? 2 : 5, spreadCodes: quick ? 10_000 : 100_000 })));
  sqlite.dispose();
  await pg?.dispose();
}

if (only.includes('longtail')) {
  const { runLongTailBench } = await import('./long-tail-bench.ts');
  const size = quick ? { codes: 100_000, scans: 1_000_000 } : { codes: 1_000_000, scans: 10_000_000 };
  if (values.db !== 'postgres') {
    const sqlite = tempSqlite();
    rows.push(...(await runLongTailBench(sqlite.config, 'SQLite', size)));
    sqlite.dispose();
  }
  if (withPostgres) {
    const pg = await freshPostgres();
    rows.push(...(await runLongTailBench({ kind: 'postgres', url: pg.url }, 'PostgreSQL', size)));
    await pg.dispose();
  }
}

if (only.includes('stats')) {
  const sizes = quick ? [10_000, 100_000] : [10_000, 1_000_000];
  const sqlite = tempSqlite();
  rows.push(...(await runStatsBench(sqlite.config, 'SQLite', sizes)));
  sqlite.dispose();
  if (withPostgres) {
    const pg = await freshPostgres();
    rows.push(...(await runStatsBench({ kind: 'postgres', url: pg.url }, 'PostgreSQL', sizes)));
    await pg.dispose();
  }
}

if (only.includes('overview')) {
  const { runAccountStatsBench } = await import('./account-stats-bench.ts');
  const size = quick ? { codes: 1_000, scans: 100_000 } : { codes: 10_000, scans: 1_000_000 };
  const sqlite = tempSqlite();
  rows.push(...(await runAccountStatsBench(sqlite.config, 'SQLite', size)));
  sqlite.dispose();
  if (withPostgres) {
    const pg = await freshPostgres();
    rows.push(...(await runAccountStatsBench({ kind: 'postgres', url: pg.url }, 'PostgreSQL', size)));
    await pg.dispose();
  }
}

if (only.includes('lists')) {
  const { runListBench } = await import('./list-bench.ts');
  const sizes: [number, number] = quick ? [10_000, 100_000] : [10_000, 1_000_000];
  const sqlite = tempSqlite();
  rows.push(...(await runListBench(sqlite.config, `sqlite:${sqlite.file}`, 'SQLite', sizes)));
  sqlite.dispose();
  if (withPostgres) {
    const pg = await freshPostgres();
    rows.push(...(await runListBench({ kind: 'postgres', url: pg.url }, pg.url, 'PostgreSQL', sizes)));
    await pg.dispose();
  }
}

if (only.includes('batch')) {
  const { runBatchBench } = await import('./batch-bench.ts');
  const batches = quick ? 5 : 20;
  const sqlite = tempSqlite();
  rows.push(...(await runBatchBench(sqlite.config, `sqlite:${sqlite.file}`, 'SQLite', batches)));
  sqlite.dispose();
  if (withPostgres) {
    const pg = await freshPostgres();
    rows.push(...(await runBatchBench({ kind: 'postgres', url: pg.url }, pg.url, 'PostgreSQL', batches)));
    await pg.dispose();
  }
}

if (only.includes('render')) {
  const { runRenderBench } = await import('./render-bench.ts');
  rows.push(...(await runRenderBench()));
}

if (only.includes('mixed')) {
  const { runMixedBench } = await import('./mixed-bench.ts');
  rows.push(...(await runMixedBench({ ...load, rounds: quick ? 1 : 3, renderConnections: 4 })));
}

if (only.includes('reads')) {
  // SQLite only: on PostgreSQL the reads run in the database server already.
  const { runReadsBench } = await import('./reads-bench.ts');
  rows.push(...(await runReadsBench({ ...load, rounds: quick ? 1 : 3, codes: 20_000 })));
}

if (only.includes('studio')) {
  const { runStudioBench } = await import('./studio-bench.ts');
  rows.push(...(await runStudioBench()));
}

if (only.includes('neighbours')) {
  const { runNeighboursBench } = await import('./neighbours-bench.ts');
  const opts = { codes: values.big ? 1_000_000 : 200_000, importRows: quick ? 20_000 : 200_000, seconds: quick ? 2 : 5 };
  const sqlite = tempSqlite();
  rows.push(...(await runNeighboursBench({ label: 'SQLite', database: sqlite.config, databaseUrl: `sqlite:${sqlite.file}` }, opts)));
  sqlite.dispose();
  if (withPostgres) {
    const pg = await freshPostgres();
    rows.push(
      ...(await runNeighboursBench({ label: 'PostgreSQL', database: { kind: 'postgres', url: pg.url }, databaseUrl: pg.url }, opts)),
    );
    await pg.dispose();
  }
}

if (only.includes('webhooks')) {
  // SQLite: the feed and the worker share the thread that answers short links there.
  const { runWebhooksBench } = await import('./webhooks-bench.ts');
  rows.push(...(await runWebhooksBench({ ...load, rounds: quick ? 1 : 5 })));
}

printResults(rows);
