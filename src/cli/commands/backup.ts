import fs from 'node:fs';
import { ValidationError } from '../../domain/errors.ts';
import { defineCommand } from '../command.ts';

/** Pages per backup step, as many as SQLite takes: the whole file in one step. */
const ALL_PAGES = 0x7fffffff;

export const backup = defineCommand({
  words: ['backup'],
  synopsis: 'FILE',
  summary: 'copy the SQLite database to FILE while the server runs (PostgreSQL: pg_dump)',
  details: `A consistent copy, scans still in the write-ahead log included (a plain cp of the live file
misses them). The server keeps answering meanwhile. FILE must not exist yet. Restore: stop the
server and put FILE where DATABASE_URL points (./data/qrtrack.db by default).`,
  options: {},
  async run({ positionals }, ctx) {
    const file = positionals[0];
    if (!file || positionals.length > 1)
      throw new ValidationError('backup: give one FILE to write, e.g. qrtrack backup qrtrack-2026-11-24.db');
    if (!ctx.db.sqlite) throw new ValidationError('backup: the database is PostgreSQL; back it up with pg_dump (see the README, Backups)');
    if (fs.existsSync(file)) throw new ValidationError(`backup: ${file} already exists; give a new file name`);
    // All pages in one step: copied 100 at a time, the copy started over at every scan the
    // server wrote between steps and never finished under load. Written beside FILE first, so
    // a copy cut off midway leaves no FILE that looks whole.
    const partial = `${file}.partial`;
    fs.rmSync(partial, { force: true });
    try {
      const { totalPages } = await ctx.db.sqlite.backup(partial, { progress: () => ALL_PAGES });
      fs.renameSync(partial, file);
      ctx.out(
        `backed up ${totalPages.toLocaleString('en-US')} pages (${(fs.statSync(file).size / 1024 / 1024).toFixed(1)} MiB) to ${file}`,
      );
    } finally {
      fs.rmSync(partial, { force: true });
      fs.rmSync(`${partial}-journal`, { force: true });
    }
  },
});
