// Help for `serve`; src/cli.ts starts the server (the same as `npm start`).
import { defineCommand } from '../command.ts';

export const serve = defineCommand({
  words: ['serve'],
  synopsis: '',
  summary: 'run the server (as npm start): API, short links, /docs, /healthz',
  details: `Configured by the environment (PORT, HOST, DATABASE_URL, PUBLIC_BASE_URL, LOG_LEVEL, LOG_FORMAT, …;
see the README). GET /healthz answers 200 {"ok": true} while it serves. SIGTERM or SIGINT: it stops
accepting, finishes what is in flight, commits queued scans and exits 0.`,
});
