// npm run bench [-- --db postgres] [-- --quick] [-- --only redirect,stats,overview,lists,batch,render,mixed,studio]
// One run measures every hot path against a baseline taken in the same run:
// the redirect against a bare http server, stats at 10k against 1M scans, the account
// overview at 10k codes / 1M scans against 100 codes / 10k scans, rendering against
// the plain qrcode package, the redirect while images
// render against the redirect alone, lists at 10k against 1M codes, and bulk
// create against one-at-a-time create, and the studio's in-browser preview against the
// server's preview route.
import { parseArgs } from 'node:util';
import { type RedirectTarget, runRedirectBench } from './redirect-bench.ts';
import { type ResultRow, printResults } from './result-row.ts';
import { runStatsBench, tempSqlite } from './stats-bench.ts';
import { freshPostgres } from './postgres.ts';

const { values } = parseArgs({ options: { db: { type: 'string', default: 'sqlite' }, quick: { type: 'boolean', default: false }, only: { type: 'string' } } });
const withPostgres = values.db === 'postgres' || values.db === 'both';
const quick = values.quick;
const only = values.only ?? 'redirect,stats,overview,lists,batch,render,mixed,studio';
const load = { connections: 50, durationSeconds: quick ? 3 : 10 };
const rows: ResultRow[] = [];

if (only.includes('redirect')) {
  const sqlite = tempSqlite();
  const targets: RedirectTarget[] = [{ label: 'SQLite', database: sqlite.config, databaseUrl: `sqlite:${sqlite.file}` }];
  const pg = withPostgres ? await freshPostgres() : null;
  if (pg) targets.push({ label: 'PostgreSQL', database: { kind: 'postgres', url: pg.url }, databaseUrl: pg.url });
  rows.push(...(await runRedirectBench(targets, { ...load, rounds: quick ? 2 : 5 })));
  sqlite.dispose();
  await pg?.dispose();
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

if (only.includes('studio')) {
  const { runStudioBench } = await import('./studio-bench.ts');
  rows.push(...(await runStudioBench()));
}

printResults(rows);
