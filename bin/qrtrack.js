#!/usr/bin/env node
// Installed bin: runs the built CLI (dist/cli.js) in this very process, so signals from a
// supervisor reach `qrtrack serve` itself, not a wrapper. Builds first what is older than its
// sources, as `npm start` does (the web app only for `serve`); a stale build without the build
// tools (installed with --omit=dev) says what to run.
import { build } from '../scripts/build.mjs';

try {
  await build({ parts: process.argv[2] === 'serve' ? ['server', 'web'] : ['server'] });
} catch (err) {
  process.stderr.write(`qrtrack: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
await import('../dist/cli.js');
