// qrtrack import FILE --account NAME [--design-json JSON]
// qrtrack export --account NAME [--format csv|json|png|svg] [--active true|false] [--content-type KIND] [--q TEXT] [--tag NAME] [--out FILE]
// Both stream: a million codes in or out with flat memory. Progress and the summary go to
// stderr, so an export's stdout is the file alone.
import fs from 'node:fs';
import { once } from 'node:events';
import { exportCodes } from '../bulk/export-codes.ts';
import { IMAGES_PAGE, type ImageExport, exportImagesZip } from '../bulk/export-images.ts';
import { readPages } from '../bulk/paged-read.ts';
import { RenderPool } from '../render-pool/render-pool.ts';
import { designFromJson, importCodes } from '../bulk/import-codes.ts';
import type { Config } from '../config.ts';
import { ApiKeysRepository } from '../db/accounts/api-keys-repository.ts';
import { type Db, openDatabase } from '../db/database.ts';
import { createAggregator } from '../db/scans/rollup-aggregator.ts';
import { addressesOf } from '../db/domains/addresses.ts';
import { DomainsRepository } from '../db/domains/domains-repository.ts';
import { LIMITS } from '../domain/design/design.ts';
import { CONTENT_TYPES, type ContentType } from '../domain/payload/index.ts';
import { normalizeTag } from '../domain/qr-items/tags.ts';
import { BulkUsageError } from './bulk-usage.ts';
import { RunningJobs } from '../bulk/running-jobs.ts';
import { exportItems } from './commands/export.ts';
import { importItems } from './commands/import.ts';
import { writeOutputFile } from './output-file.ts';
import { type ParsedArgs, parseCommandArgs } from './parse-command-args.ts';

export async function runBulkCommand(command: 'import' | 'export', args: string[], config: Config): Promise<void> {
  const { values, positionals } = parseBulkArgs(command, args);
  if (!values.account) throw new BulkUsageError(`${command}: --account NAME is required`);
  const db = await openDatabase(config.database);
  try {
    const keys = new ApiKeysRepository(db);
    if (command === 'import') {
      const file = positionals[0];
      if (!file) throw new BulkUsageError('import: FILE is required');
      if (!fs.existsSync(file)) throw new BulkUsageError(`import: no such file: ${file}`);
      const defaultDesign = values['design-json'] === undefined ? undefined : await designFromJson(values['design-json'], '--design-json');
      // An unknown name is refused, not made: a typo put the codes in a new account, exit 0.
      const accountId = await keys.findAccountId(values.account);
      if (!accountId)
        throw new BulkUsageError(
          `import: no account named "${values.account}" (see qrtrack accounts list; qrtrack accounts create NAME makes one)`,
        );
      // One import of an account at a time, the server's and the CLI's alike (running-jobs.ts).
      const done = await new RunningJobs(db).start(accountId, 'import', 'a CLI import');
      try {
        await importFile(db, config, accountId, file, values.account, defaultDesign);
      } finally {
        await done();
      }
      return;
    }
    const format = values.format ?? 'csv';
    if (format !== 'csv' && format !== 'json' && format !== 'png' && format !== 'svg')
      throw new BulkUsageError('export: --format must be csv, json, png or svg');
    const accountId = await keys.findAccountId(values.account);
    if (!accountId) throw new BulkUsageError(`export: no account "${values.account}"`);
    if ((format === 'png' || format === 'svg') && !values.out)
      throw new BulkUsageError(`export: --format ${format} writes a ZIP file: give --out FILE.zip`);
    // One export of an account at a time, the server's and the CLI's alike (running-jobs.ts).
    const done = await new RunningJobs(db).start(accountId, 'export', `a CLI export (${format.toUpperCase()})`);
    try {
      await exportTo(db, config, accountId, format, values);
    } finally {
      await done();
    }
  } finally {
    await db.close();
  }
}

async function importFile(
  db: Db,
  config: Config,
  accountId: string,
  file: string,
  account: string,
  defaultDesign: Awaited<ReturnType<typeof designFromJson>> | undefined,
): Promise<void> {
  const started = Date.now();
  process.stderr.write(`checking ${file}…\n`);
  // Logos are parsed and trialled as the server does, so the CLI stores none the server would refuse.
  const renderer = new RenderPool(config.render);
  const summary = await importCodes(db, accountId, () => fs.createReadStream(file), {
    publicBaseUrl: (await addressesOf(db, config)).publicUrl(),
    domainId: (await new DomainsRepository(db).activeDefault(accountId))?.id ?? null,
    defaultDesign,
    maxCodes: config.maxCodesPerAccount,
    parseLogo: (field, logo) => renderer.parseLogo(field, logo, LIMITS.resolution.max),
    onProgress: (stored, total) => progress(`imported ${stored.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} codes`, stored),
  }).finally(() => renderer.close());
  progressDone();
  const seconds = (Date.now() - started) / 1000;
  process.stderr.write(`imported ${summary.created.toLocaleString('en-US')} codes into account "${account}" in ${seconds.toFixed(1)} s\n`);
}

async function exportTo(
  db: Db,
  config: Config,
  accountId: string,
  format: 'csv' | 'json' | 'png' | 'svg',
  values: ParsedArgs<BulkOptions>['values'],
): Promise<void> {
  const filter = exportFilter(values);
  // Scan counts as of now, scans a stopped server left pending included.
  await createAggregator(db).catchUp(120_000);
  let exported = 0;
  const onProgress = (n: number) => {
    exported = n;
    progress(`exported ${n.toLocaleString('en-US')} codes`, n);
  };
  const chunks =
    format === 'png' || format === 'svg'
      ? imagesZip(db, config, accountId, { filter, format, onProgress })
      : exportCodes(db, accountId, filter, format, (await addressesOf(db, config)).table(), onProgress);
  if (values.out) await writeOutputFile('export', values.out, chunks);
  else {
    for await (const chunk of chunks) {
      if (!process.stdout.write(chunk)) await once(process.stdout, 'drain');
    }
  }
  progressDone();
  process.stderr.write(`exported ${exported.toLocaleString('en-US')} codes of account "${values.account}" as ${format}\n`);
}

type BulkOptions = NonNullable<typeof importItems.options> & NonNullable<typeof exportItems.options>;

/** Each command accepts only its own options (as its --help lists them); one values type serves both. */
function parseBulkArgs(command: 'import' | 'export', args: string[]): ParsedArgs<BulkOptions> {
  return command === 'import' ? parseCommandArgs(importItems, args) : parseCommandArgs(exportItems, args);
}

/** Images are drawn in a render pool of the CLI's own, with the server's budgets. */
async function* imagesZip(db: Db, config: Config, accountId: string, opts: ImageExport): AsyncGenerator<Uint8Array> {
  const renderer = new RenderPool(config.render);
  try {
    yield* exportImagesZip(readPages(db, accountId, opts.filter, IMAGES_PAGE), renderer, await addressesOf(db, config), opts);
  } finally {
    await renderer.close();
  }
}

function exportFilter(values: { active?: string; 'content-type'?: string; q?: string; tag?: string }) {
  const active = values.active === undefined ? undefined : values.active === 'true' ? true : values.active === 'false' ? false : null;
  if (active === null) throw new BulkUsageError('export: --active must be true or false');
  const kind = values['content-type'];
  if (kind !== undefined && !(CONTENT_TYPES as readonly string[]).includes(kind))
    throw new BulkUsageError(`export: --content-type must be one of ${CONTENT_TYPES.join(', ')}`);
  return {
    active,
    contentType: kind as ContentType | undefined,
    q: values.q,
    tag: values.tag === undefined ? undefined : normalizeTag(values.tag, '--tag'),
  };
}

/** One progress line, rewritten in place on a terminal; a line per 100,000 codes otherwise (logs). */
function progress(line: string, n: number): void {
  if (process.stderr.isTTY) process.stderr.write(`\r${line}\x1b[K`);
  else if (n % 100_000 === 0) process.stderr.write(`${line}\n`);
}

function progressDone(): void {
  if (process.stderr.isTTY) process.stderr.write('\n');
}
