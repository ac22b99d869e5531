import os from 'node:os';
import { defineConfig } from 'vitest/config';

// Every test runs on SQLite. When TEST_DATABASE_URL names a PostgreSQL server, the
// HTTP and database suites run a second time against it (project "postgres"), each
// test app in a schema of its own.
const postgres = process.env.TEST_DATABASE_URL;

export default defineConfig({
  test: {
    // Guards against a hang, not performance targets (those are benches): two files at once on a
    // 2-core machine took CPU-heavy tests (the search reference, the CLI's processes) to 30 s.
    testTimeout: 90_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two files at once even on a 2-core machine (Vitest's default there is one, CPUs - 1): most
    // files spend their time waiting on servers, child processes, PostgreSQL and timers, and one
    // at a time the suite no longer fit the CI's 90 minutes on three Nodes (docs/testing.md).
    poolOptions: { forks: { maxForks: Math.max(2, os.availableParallelism() - 1) } },
    // Builds dist/ when its sources changed: the web-app, browser, `npm start` and production-install tests run it.
    globalSetup: ['test/support/build.ts'],
    projects: [
      { extends: true as const, test: { name: 'sqlite', include: ['test/**/*.test.ts'], exclude: ['test/web/**'] } },
      // The quick loop (npm run test:unit): domain, renderer and database on SQLite, without the
      // exhaustive decode matrix (about 100 s; the sqlite project still runs it).
      ...(process.env.QRTRACK_TEST_UNIT
        ? [
            {
              extends: true as const,
              test: { name: 'unit', include: ['test/{domain,render,db}/**/*.test.ts'], exclude: ['test/render/decode-matrix.test.ts'] },
            },
          ]
        : []),
      // Browser files run one after another, and after every other project (groupOrder): a
      // Chromium and its app server beside the rest of the suite on a 2-core machine waited 45 s
      // and more for a page's first paint. A test a loaded machine still starves gets two more tries.
      {
        extends: true as const,
        test: {
          name: 'browser',
          include: ['test/web/**/*.test.ts'],
          poolOptions: { forks: { singleFork: true } },
          retry: 2,
          // expect.poll waits for what a page shows after a render or a request: Vitest's default
          // of 1 s is short for a Chromium sharing two cores (Playwright's own waits allow 30 s).
          // A state that never comes still fails, only later.
          expect: { poll: { timeout: 15_000 } },
          sequence: { groupOrder: 1 },
        },
      },
      ...(postgres
        ? [
            {
              extends: true as const,
              test: {
                name: 'postgres',
                include: ['test/http/**/*.test.ts', 'test/db/**/*.test.ts'],
                // These start processes on SQLite files of their own; the multi-process suite covers PostgreSQL.
                exclude: [
                  'test/http/server.test.ts',
                  'test/http/durability.test.ts',
                  'test/http/npm-start.test.ts',
                  'test/db/sqlite-driver.test.ts',
                ],
                env: { QRTRACK_TEST_DB: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
